/// <reference lib="dom" />
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-pricing-0123';
const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 860 };

interface Price {
  model: string;
  type: 'tokens' | 'times';
  channel_type: number;
  input: number;
  output: number;
  locked: boolean;
}
interface Owner {
  id: number;
  name: string;
  icon: string;
}
interface ModelInfo {
  id: number;
  model: string;
  name: string;
  context_length: number;
  tags: string;
}

let server: RunningServer;
let browser: Browser;

const call = <T>(method: string, path: string, body?: unknown) =>
  apiCall<T>(server.origin, method, path, { token: ROOT_TOKEN }, body);
const storedPrices = async () =>
  new Map((await call<Price[]>('GET', '/api/prices')).map((price) => [price.model, price]));

const price = (model: string, fields: Partial<Price> = {}): Price => ({
  model,
  type: 'tokens',
  channel_type: 1,
  input: 1,
  output: 1,
  locked: false,
  ...fields,
});

/** A stand-in for One Hub's price service (prices.json), which the server fetches for the console. */
let priceService: Server;
let servicePrices: Price[] = [];

beforeAll(async () => {
  priceService = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: servicePrices }));
  });
  await new Promise<void>((resolve) => priceService.listen(0, '127.0.0.1', resolve));
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    UPDATE_PRICE_SERVICE: `http://127.0.0.1:${(priceService.address() as AddressInfo).port}/prices.json`,
  });
  const seeds = [
    price('e2e-chat', { input: 1.5, output: 7.5 }),
    price('e2e-image', { type: 'times', channel_type: 34, input: 25, output: 0 }),
    price('e2e-locked', { input: 3, output: 3, locked: true }),
    price('e2e-multi-a', { input: 1, output: 1 }),
    price('e2e-multi-b', { input: 2, output: 2 }),
  ];
  for (const seed of seeds) await call('POST', '/api/prices/single', seed);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => priceService?.close(resolve));
});

async function rootPage(options: { theme?: string; viewport?: typeof desktop } = {}): Promise<Page> {
  const page = await browser.newPage({ viewport: options.viewport ?? desktop });
  await page.addInitScript(
    ([theme]) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', 'en_US');
      if (theme) window.localStorage.setItem('theme', theme);
    },
    [options.theme ?? ''],
  );
  await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
  return page;
}

const row = (page: Page, model: string) => page.getByTestId(`pricing-row-${model}`);
const cell = async (page: Page, model: string, testId: string) =>
  ((await row(page, model).getByTestId(testId).textContent()) ?? '').trim();
const closed = (page: Page, testId: string) => page.getByTestId(testId).waitFor({ state: 'hidden' });
const rowCount = (page: Page, prefix: string) => page.locator(`[data-testid^=${prefix}]`).count();

async function searchPrices(page: Page, text: string): Promise<void> {
  await page.getByTestId('pricing-search').fill(text);
  await expect.poll(() => page.url()).toContain(`q=${encodeURIComponent(text)}`);
}

async function chooseChannelType(page: Page, id: number, typed: string): Promise<void> {
  await page.getByTestId('pricing-form-channel-type').fill(typed);
  await page.getByTestId(`pricing-form-channel-type-option-${id}`).click();
}

describe('the price table', () => {
  it('shows $ per 1K and 1M tokens, and updates them when a price changes', async () => {
    const page = await rootPage();
    await page.goto(`${server.origin}/panel/pricing`);
    await page.getByTestId('pricing-list').waitFor();
    await searchPrices(page, 'e2e-');
    await expect.poll(() => rowCount(page, 'pricing-row-')).toBe(5);

    // 1.5 / 7.5 → $0.003 and $0.015 per 1K, $3 and $15 per 1M; 25 per call → $0.05 a call.
    expect(await cell(page, 'e2e-chat', 'pricing-input-per-1k')).toBe('$0.003 / 1K tokens');
    expect(await cell(page, 'e2e-chat', 'pricing-input-per-1m')).toBe('$3.00 / 1M tokens');
    expect(await cell(page, 'e2e-chat', 'pricing-output-per-1k')).toBe('$0.015 / 1K tokens');
    expect(await cell(page, 'e2e-chat', 'pricing-output-per-1m')).toBe('$15.00 / 1M tokens');
    expect(await cell(page, 'e2e-chat', 'pricing-owner')).toBe('OpenAI');
    expect(await cell(page, 'e2e-image', 'pricing-input-per-call')).toBe('$0.05 / call');
    expect(await cell(page, 'e2e-image', 'pricing-owner')).toBe('Midjourney');
    expect(await row(page, 'e2e-locked').getByTestId('pricing-locked').getAttribute('aria-label')).toBe('Locked');

    // Filter by billing type: only the per-call price is left.
    await page.getByTestId('pricing-filter-type').click();
    await page.getByTestId('pricing-filter-type-times').click();
    await expect.poll(() => rowCount(page, 'pricing-row-')).toBe(1);
    expect(await row(page, 'e2e-image').count()).toBe(1);
    await page.getByTestId('pricing-filter-type').click();
    await page.getByTestId('pricing-filter-type-all').click();
    await expect.poll(() => rowCount(page, 'pricing-row-')).toBe(5);
    await screenshot(page, 'admin-pricing-prices');

    await row(page, 'e2e-chat').getByTestId('pricing-edit').click();
    await page.getByTestId('pricing-form').waitFor();
    expect(await page.getByTestId('pricing-form-model').inputValue()).toBe('e2e-chat');
    await page.getByTestId('pricing-form-input').fill('2.5');
    await expect
      .poll(() => page.getByTestId('pricing-form-input-hint').textContent())
      .toBe('$0.005 / 1K tokens · $5.00 / 1M tokens');
    await screenshot(page, 'admin-pricing-edit-dialog');
    await page.getByTestId('pricing-form-submit').click();
    await closed(page, 'pricing-dialog');
    await expect.poll(() => cell(page, 'e2e-chat', 'pricing-input-per-1k')).toBe('$0.005 / 1K tokens');
    expect(await cell(page, 'e2e-chat', 'pricing-input-per-1m')).toBe('$5.00 / 1M tokens');
    expect((await storedPrices()).get('e2e-chat')).toMatchObject({ input: 2.5, output: 7.5, channel_type: 1 });
    await page.close();
  });

  it('refuses a duplicate model name on the field, then creates and deletes a price', async () => {
    const page = await rootPage();
    await page.goto(`${server.origin}/panel/pricing?q=e2e-`);
    await row(page, 'e2e-chat').waitFor();

    await page.getByTestId('pricing-create').click();
    await page.getByTestId('pricing-form').waitFor();
    // Nothing filled in: each required field says so.
    await page.getByTestId('pricing-form-submit').click();
    expect(await page.getByTestId('pricing-form-model-helper').textContent()).toBe('Enter the model name');
    await page.getByTestId('pricing-form-model').fill('e2e-chat');
    await chooseChannelType(page, 14, 'Anthropic');
    await page.getByTestId('pricing-form-input').fill('1');
    await page.getByTestId('pricing-form-output').fill('-2');
    await page.getByTestId('pricing-form-submit').click();
    expect(await page.getByTestId('pricing-form-model-helper').textContent()).toBe('e2e-chat already has a price');
    expect(await page.getByTestId('pricing-form-output-helper').textContent()).toBe('Enter a number of at least 0');
    await screenshot(page, 'admin-pricing-create-errors');

    await page.getByTestId('pricing-form-model').fill('e2e-new/model');
    await page.getByTestId('pricing-form-output').fill('4');
    await page.getByTestId('pricing-form-submit').click();
    await closed(page, 'pricing-dialog');
    await row(page, 'e2e-new/model').waitFor();
    expect(await cell(page, 'e2e-new/model', 'pricing-owner')).toBe('Anthropic');
    expect((await storedPrices()).get('e2e-new/model')).toMatchObject({ channel_type: 14, input: 1, output: 4 });

    await row(page, 'e2e-new/model').getByTestId('pricing-delete').click();
    await page.getByTestId('pricing-delete-dialog').waitFor();
    await page.getByTestId('pricing-delete-dialog-confirm').click();
    await closed(page, 'pricing-delete-dialog');
    await expect.poll(() => row(page, 'e2e-new/model').count()).toBe(0);
    expect((await storedPrices()).has('e2e-new/model')).toBe(false);
    await page.close();
  });

  it('gives two selected models one price, then deletes them together', async () => {
    const page = await rootPage();
    await page.goto(`${server.origin}/panel/pricing?q=e2e-multi`);
    await row(page, 'e2e-multi-a').waitFor();
    await row(page, 'e2e-multi-a').getByTestId('pricing-select').check();
    await row(page, 'e2e-multi-b').getByTestId('pricing-select').check();
    expect(await page.getByTestId('pricing-selected-count').textContent()).toBe('Selected: 2');

    await page.getByTestId('pricing-edit-selected').click();
    await page.getByTestId('pricing-multiple-form').waitFor();
    expect(await page.getByTestId('pricing-multiple-model-e2e-multi-a').count()).toBe(1);
    expect(await page.getByTestId('pricing-multiple-model-e2e-multi-b').count()).toBe(1);
    // Adding a model priced elsewhere is refused on the field.
    await page.getByTestId('pricing-multiple-models').fill('e2e-chat');
    await page.getByTestId('pricing-multiple-models').press('Enter');
    await page.getByTestId('pricing-form-input').fill('4');
    await page.getByTestId('pricing-form-output').fill('8');
    await page.getByTestId('pricing-multiple-submit').click();
    expect(await page.getByTestId('pricing-multiple-models-helper').textContent()).toBe(
      'These models already have a price: e2e-chat',
    );
    await screenshot(page, 'admin-pricing-multiple-dialog');
    await page.getByTestId('pricing-multiple-model-e2e-chat').locator('svg').click();
    await page.getByTestId('pricing-multiple-submit').click();
    await closed(page, 'pricing-multiple-dialog');

    await expect.poll(async () => (await storedPrices()).get('e2e-multi-a')?.input).toBe(4);
    const prices = await storedPrices();
    expect(prices.get('e2e-multi-b')).toMatchObject({ input: 4, output: 8 });
    expect(prices.get('e2e-chat')?.input).toBe(2.5);
    await expect.poll(() => cell(page, 'e2e-multi-b', 'pricing-input-per-1k')).toBe('$0.008 / 1K tokens');
    expect(await cell(page, 'e2e-multi-b', 'pricing-input-per-1m')).toBe('$8.00 / 1M tokens');

    await row(page, 'e2e-multi-a').getByTestId('pricing-select').check();
    await row(page, 'e2e-multi-b').getByTestId('pricing-select').check();
    await page.getByTestId('pricing-delete-selected').click();
    await page.getByTestId('pricing-delete-many-dialog-confirm').click();
    await closed(page, 'pricing-delete-many-dialog');
    await page.getByTestId('pricing-empty').waitFor();
    const after = await storedPrices();
    expect(after.has('e2e-multi-a') || after.has('e2e-multi-b')).toBe(false);
    await page.close();
  });

  it('works on a narrow screen in dark mode', async () => {
    const page = await rootPage({ theme: 'dark', viewport: phone });
    await page.goto(`${server.origin}/panel/pricing?q=e2e-`);
    await row(page, 'e2e-chat').waitFor();
    expect(await page.locator('[data-testid=pricing-list] table').count()).toBe(0);
    expect(await cell(page, 'e2e-chat', 'pricing-input-per-1k')).toBe('$0.005 / 1K tokens');
    expect(await cell(page, 'e2e-chat', 'pricing-input-per-1m')).toBe('$5.00 / 1M tokens');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await screenshot(page, 'admin-pricing-prices-phone-dark');
    await page.close();
  });
});

describe('models channels serve without a price', () => {
  it('are named above the list; a chip opens "add price" with the name, and saving the price clears them', async () => {
    // No channel exists before this one, so its unpriced model is the only one the alert can name.
    const model = 'house-unpriced-7b';
    const [channel] = await call<Array<{ id: number }>>('POST', '/api/channel/', {
      name: 'unpriced-e2e',
      type: 1,
      key: 'sk-unpriced-e2e',
      models: `e2e-chat,${model}`,
      group: 'default',
    });
    try {
      const page = await rootPage();
      await page.goto(`${server.origin}/panel/pricing`);
      const alert = page.getByTestId('pricing-unpriced');
      await alert.waitFor();
      // Root reads the setting, so the alert says which outcome applies (the default: the fallback price).
      await expect.poll(() => alert.getAttribute('data-policy')).toBe('fallback');
      const said = (await alert.textContent()) ?? '';
      expect(said).toContain(`No price is set for: ${model}`);
      expect(said).not.toContain('e2e-chat');
      expect(said).toContain('$60 per 1M input tokens and $60 per 1M output tokens');
      await screenshot(page, 'admin-pricing-unpriced');

      await page.getByTestId(`pricing-unpriced-${model}`).click();
      await page.getByTestId('pricing-form').waitFor();
      expect(await page.getByTestId('pricing-form-model').inputValue()).toBe(model);
      await chooseChannelType(page, 1, 'OpenAI');
      await page.getByTestId('pricing-form-input').fill('1');
      await page.getByTestId('pricing-form-output').fill('2');
      await page.getByTestId('pricing-form-submit').click();
      await closed(page, 'pricing-dialog');
      await alert.waitFor({ state: 'detached' });
      expect((await storedPrices()).get(model)).toMatchObject({ channel_type: 1, input: 1, output: 2 });
      expect(await call<unknown[]>('GET', '/api/prices/unpriced')).toEqual([]);
      await page.close();
    } finally {
      // Later tests see the prices as they were, without this channel. A JSON body: the API refuses an empty one.
      await call('DELETE', `/api/channel/${channel?.id}`, {});
      await call('DELETE', `/api/prices/single/${model}`, {}).catch(() => undefined);
    }
  });
});

describe('owners and model information', () => {
  it('adds a model owner, refusing a reserved id on the field', async () => {
    const page = await rootPage();
    await page.goto(`${server.origin}/panel/pricing?tab=owners`);
    await page.getByTestId('pricing-owner-row-14').waitFor();
    await screenshot(page, 'admin-pricing-owners');

    await page.getByTestId('pricing-owner-create').click();
    await page.getByTestId('pricing-owner-form').waitFor();
    await page.getByTestId('pricing-owner-form-id').fill('14');
    await page.getByTestId('pricing-owner-form-name').fill('Acme AI');
    await page.getByTestId('pricing-owner-form-icon').fill('not a link');
    await page.getByTestId('pricing-owner-form-submit').click();
    expect(await page.getByTestId('pricing-owner-form-icon-helper').textContent()).toBe(
      'Enter an http(s) URL, or leave it empty',
    );
    expect(await page.getByTestId('pricing-owner-form-id-helper').textContent()).toBe(
      'The id must be a whole number of at least 1001; smaller ids are reserved',
    );
    await page.getByTestId('pricing-owner-form-id').fill('');
    await page.getByTestId('pricing-owner-form-icon').fill('');
    await screenshot(page, 'admin-pricing-owner-dialog');
    await page.getByTestId('pricing-owner-form-submit').click();
    await closed(page, 'pricing-owner-dialog');

    await page.getByTestId('pricing-owner-row-1001').waitFor();
    expect(await page.getByTestId('pricing-owner-row-1001').getByTestId('pricing-owner-name').textContent()).toBe(
      'Acme AI',
    );
    const owners = await call<Record<string, Owner>>('GET', '/api/ownedby');
    expect(owners['1001']).toEqual({ id: 1001, name: 'Acme AI', icon: '' });
    expect(owners['1']?.name).toBe('OpenAI');

    // The new owner is offered for prices.
    await page.getByTestId('pricing-tab-prices').click();
    await page.getByTestId('pricing-create').click();
    await chooseChannelType(page, 1001, 'Acme');
    expect(await page.getByTestId('pricing-form-channel-type').inputValue()).toBe('Acme AI (#1001)');
    await page.getByTestId('pricing-form-cancel').click();
    await page.close();
  });

  it('adds model information and refuses a second entry for the same model', async () => {
    const page = await rootPage();
    await page.goto(`${server.origin}/panel/pricing?tab=info`);
    await page.getByTestId('pricing-info-empty').waitFor();

    await page.getByTestId('pricing-info-create').click();
    await page.getByTestId('pricing-info-form').waitFor();
    await page.getByTestId('pricing-info-form-model').fill('e2e-chat');
    await page.getByTestId('pricing-info-form-name').fill('E2E Chat');
    await page.getByTestId('pricing-info-form-context').fill('128000');
    await page.getByTestId('pricing-info-form-tags').fill('chat');
    await page.getByTestId('pricing-info-form-tags').press('Enter');
    await page.getByTestId('pricing-info-form-urls').fill('ftp://nope');
    await page.getByTestId('pricing-info-form-submit').click();
    expect(await page.getByTestId('pricing-info-form-urls-helper').textContent()).toBe(
      'Each line must be an http(s) URL',
    );
    await page.getByTestId('pricing-info-form-urls').fill('https://docs.example.test/e2e-chat');
    await screenshot(page, 'admin-pricing-info-dialog');
    await page.getByTestId('pricing-info-form-submit').click();
    await closed(page, 'pricing-info-dialog');

    const infoRow = page.getByTestId('pricing-info-row-e2e-chat');
    await infoRow.waitFor();
    expect(await infoRow.getByTestId('pricing-info-name').textContent()).toBe('E2E Chat');
    expect(await infoRow.getByTestId('pricing-info-context').textContent()).toBe('128,000');
    const infos = await call<ModelInfo[]>('GET', '/api/model_info/');
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({ model: 'e2e-chat', name: 'E2E Chat', context_length: 128000, tags: '["chat"]' });
    await screenshot(page, 'admin-pricing-info');

    await page.getByTestId('pricing-info-create').click();
    await page.getByTestId('pricing-info-form-model').fill('e2e-chat');
    await page.getByTestId('pricing-info-form-name').fill('Again');
    await page.getByTestId('pricing-info-form-submit').click();
    expect(await page.getByTestId('pricing-info-form-model-helper').textContent()).toBe(
      'e2e-chat already has model information',
    );
    await page.getByTestId('pricing-info-form-cancel').click();
    expect(await call<ModelInfo[]>('GET', '/api/model_info/')).toHaveLength(1);
    await page.close();
  });
});

describe('the price-update check', () => {
  it('compares an uploaded file, applies "add", and keeps the locked price through "overwrite"', async () => {
    const page = await rootPage();
    await page.goto(`${server.origin}/panel/pricing?tab=check`);
    // The built-in list is compared first.
    await page.getByTestId('pricing-check-summary').waitFor();
    await page.getByTestId('pricing-check-source-file').click();
    await page.getByTestId('pricing-check-waiting').waitFor();

    await page.getByTestId('pricing-check-file').setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify([price('ok'), { ...price('bad'), input: -1 }])),
    });
    await page.getByTestId('pricing-check-file-error').waitFor();
    expect(await page.getByTestId('pricing-check-file-error').textContent()).toContain('Entry 2 (bad): input');
    expect(await page.getByTestId('pricing-check-summary').count()).toBe(0);

    const before = await storedPrices();
    const list = [
      price('e2e-chat', { input: 9, output: 9 }),
      price('e2e-locked', { input: 50, output: 50 }),
      price('e2e-fresh-1', { input: 0.5, output: 1 }),
      price('e2e-fresh-2', { type: 'times', channel_type: 34, input: 10, output: 0 }),
    ];
    await page.getByTestId('pricing-check-file').setInputFiles({
      name: 'prices.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ data: list })),
    });
    await page.getByTestId('pricing-check-summary').waitFor();
    const count = (status: string) => page.getByTestId(`pricing-check-count-${status}`).getAttribute('data-count');
    expect(await count('new')).toBe('2');
    expect(await count('changed')).toBe('1');
    expect(await count('locked')).toBe('1');
    // Every other stored price is missing from the file.
    expect(await count('onlyCurrent')).toBe(String(before.size - 2));
    expect(await page.getByTestId('pricing-check-row-e2e-chat').getByTestId('pricing-check-status').textContent()).toBe(
      'Changed',
    );
    await screenshot(page, 'admin-pricing-check');

    await page.getByTestId('pricing-check-mode-add').check();
    await page.getByTestId('pricing-check-apply').click();
    await expect.poll(() => count('new')).toBe('0');
    let prices = await storedPrices();
    expect(prices.get('e2e-fresh-1')).toMatchObject({ input: 0.5, output: 1 });
    expect(prices.get('e2e-fresh-2')).toMatchObject({ type: 'times', input: 10 });
    expect(prices.get('e2e-chat')?.input).toBe(2.5);
    expect(prices.size).toBe(before.size + 2);

    await page.getByTestId('pricing-check-mode-overwrite').check();
    await page.getByTestId('pricing-check-apply').click();
    await page.getByTestId('pricing-check-overwrite-dialog').waitFor();
    await screenshot(page, 'admin-pricing-overwrite-confirm');
    await page.getByTestId('pricing-check-overwrite-dialog-confirm').click();
    await closed(page, 'pricing-check-overwrite-dialog');
    await expect.poll(() => count('onlyCurrent')).toBe('0');

    prices = await storedPrices();
    expect([...prices.keys()].sort()).toEqual(['e2e-chat', 'e2e-fresh-1', 'e2e-fresh-2', 'e2e-locked']);
    expect(prices.get('e2e-chat')).toMatchObject({ input: 9, output: 9 });
    // Locked: unchanged by the overwrite.
    expect(prices.get('e2e-locked')).toMatchObject({ input: 3, output: 3, locked: true });
    expect(await count('locked')).toBe('1');
    expect(await count('changed')).toBe('0');
    await page.close();
  });

  it('compares the price update service\'s list, fetched by the server, and applies "update"', async () => {
    const before = await storedPrices();
    servicePrices = [price('e2e-chat', { input: 4, output: 8 }), price('e2e-service-only', { input: 1, output: 2 })];
    const page = await rootPage();
    await page.goto(`${server.origin}/panel/pricing?tab=check`);
    await page.getByTestId('pricing-check-summary').waitFor();
    await page.getByTestId('pricing-check-source-service').click();
    expect(await page.getByTestId('pricing-check-service-url').textContent()).toContain('/prices.json');
    const count = (status: string) => page.getByTestId(`pricing-check-count-${status}`).getAttribute('data-count');
    await expect.poll(() => count('new')).toBe('1');
    expect(await count('changed')).toBe('1');
    await screenshot(page, 'admin-pricing-service');

    await page.getByTestId('pricing-check-mode-update').check();
    await page.getByTestId('pricing-check-apply').click();
    await expect.poll(() => count('changed')).toBe('0');
    const prices = await storedPrices();
    expect(prices.get('e2e-chat')).toMatchObject({ input: 4, output: 8 });
    // "update" adds nothing.
    expect(prices.has('e2e-service-only')).toBe(false);
    expect(prices.size).toBe(before.size);
    await page.close();
  });
});
