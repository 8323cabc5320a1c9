/// <reference lib="dom" />
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.js';
import { expandSection, launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-channels-0123';
const desktop = { width: 1400, height: 900 };
const phone = { width: 390, height: 844 };
const REFUSAL = 'The mock refuses this model';

// ---- a tiny OpenAI-compatible upstream ----

interface MockUpstream {
  url: string;
  /** Every request: method, path, the model asked for and the key it came with. */
  received: Array<{ method: string; path: string; model: string; authorization: string }>;
  /** Milliseconds the chat answers wait (to make a test-all run last long enough to be seen). */
  delayMs: number;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function sendJson(response: import('node:http').ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function startMockUpstream(): Promise<MockUpstream> {
  const mock: MockUpstream = { url: '', received: [], delayMs: 0, close: async () => {} };
  const server: Server = createServer((request, response) => {
    void readJson(request).then(async (body) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      const model = typeof body.model === 'string' ? body.model : '';
      mock.received.push({
        method: request.method ?? '',
        path,
        model,
        authorization: request.headers.authorization ?? '',
      });
      if (path === '/v1/models') {
        sendJson(response, 200, { object: 'list', data: [{ id: 'mock-chat' }, { id: 'mock-extra' }] });
      } else if (path === '/v1/dashboard/billing/subscription') {
        sendJson(response, 200, { hard_limit_usd: 20 });
      } else if (path === '/v1/dashboard/billing/usage') {
        sendJson(response, 200, { total_usage: 500 });
      } else if (path === '/v1/chat/completions') {
        if (mock.delayMs) await new Promise((resolve) => setTimeout(resolve, mock.delayMs));
        if (model === 'mock-broken') {
          sendJson(response, 400, { error: { message: REFUSAL, type: 'invalid_request_error' } });
          return;
        }
        sendJson(response, 200, {
          id: 'chatcmpl-mock',
          object: 'chat.completion',
          created: 1_700_000_000,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
        });
      } else {
        sendJson(response, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return mock;
}

// ---- set-up through the real API ----

interface ChannelRow {
  id: number;
  name: string;
  status: number;
  priority: number;
  weight: number;
  models: string;
  model_mapping: string;
  other: string;
  tag: string;
  test_time: number;
  response_time: number;
}

let server: RunningServer;
let upstream: MockUpstream;
let browser: Browser;

const root = <T>(method: string, path: string, body?: unknown) =>
  apiCall<T>(server.origin, method, path, { token: ROOT_TOKEN }, body);

async function channelsNamed(name: string): Promise<ChannelRow[]> {
  const page = await root<{ data: ChannelRow[] }>('GET', `/api/channel/?filter_tag=3&size=100&name=${name}`);
  return page.data;
}

async function channelNamed(name: string): Promise<ChannelRow> {
  const [found] = (await channelsNamed(name)).filter((channel) => channel.name === name);
  if (!found) throw new Error(`no channel named ${name}`);
  return found;
}

const tagChannels = (tag: string) => root<ChannelRow[]>('GET', `/api/channel_tag/${tag}/list`);

async function seed(): Promise<void> {
  for (const model of ['mock-chat', 'mock-broken', 'mock-priced']) {
    await root('POST', '/api/prices/single', { model, type: 'tokens', channel_type: 1, input: 1, output: 1 });
  }
  await root('POST', '/api/user_group/', { symbol: 'team', name: 'Team', ratio: 1, api_rate: 600, public: true });
  // A tag of two channels (one per key), and a plain channel to delete.
  await root('POST', '/api/channel/', {
    name: 'pool',
    type: 1,
    key: 'sk-pool-1\nsk-pool-2',
    base_url: upstream.url,
    models: 'mock-chat,pool-only',
    group: 'default',
    tag: 'pool',
    test_model: 'mock-chat',
  });
  await root('POST', '/api/channel/', {
    name: 'spare',
    type: 1,
    key: 'sk-spare',
    base_url: upstream.url,
    models: 'mock-chat',
    group: 'default',
    test_model: 'mock-chat',
  });
}

beforeAll(async () => {
  upstream = await startMockUpstream();
  server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
  await seed();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.close();
});

// ---- browser helpers ----

async function openChannels(
  options: { viewport?: { width: number; height: number }; theme?: 'dark'; query?: string; language?: string } = {},
): Promise<Page> {
  const page = await browser.newPage({ viewport: options.viewport ?? desktop });
  await page.addInitScript(
    ({ theme, language }) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', language);
      if (theme && !window.localStorage.getItem('theme')) window.localStorage.setItem('theme', theme);
    },
    { theme: options.theme ?? '', language: options.language ?? 'en_US' },
  );
  await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
  await page.goto(`${server.origin}/panel/channel${options.query ?? ''}`);
  await page.getByTestId('channel-list').waitFor();
  return page;
}

/** The helper text under the input with this test id, and whether the input is marked invalid. */
async function fieldState(page: Page, testId: string): Promise<{ invalid: boolean; helper: string }> {
  const input = page.getByTestId(testId);
  const control = page.locator('.MuiFormControl-root', { has: input }).last();
  return {
    invalid: (await input.getAttribute('aria-invalid')) === 'true',
    helper: (await control.locator('.MuiFormHelperText-root').textContent()) ?? '',
  };
}

async function addModel(page: Page, model: string): Promise<void> {
  const input = page.getByTestId('channel-form-models');
  await input.fill(model);
  await input.press('Enter');
}

const textOf = async (locator: Locator) => (await locator.textContent())?.trim() ?? '';

// ---- the flows ----

describe('channel administration', () => {
  let mainId = 0;

  it('creates a channel through the dialog, refusing a bad wildcard and a bad mapping on their fields', async () => {
    const page = await openChannels();
    await page.getByTestId('channel-create').click();
    await page.getByTestId('channel-form').waitFor();
    // The type list comes from /api/providers; the first one (OpenAI) is chosen.
    expect(await page.getByTestId('channel-form-type').inputValue()).toBe('OpenAI');

    await page.getByTestId('channel-form-name').fill('mock-main');
    await page.getByTestId('channel-form-base-url').fill(upstream.url);
    await page.getByTestId('channel-form-key').fill('sk-main-upstream');
    await addModel(page, 'mock-chat');
    await addModel(page, '*bad');
    await expandSection(page, 'channel-form-advanced');
    await page.getByTestId('channel-form-model-mapping').fill('{"gpt-mock": 1');
    await page.getByTestId('channel-form-submit').click();

    await expect.poll(async () => (await fieldState(page, 'channel-form-models')).invalid).toBe(true);
    expect((await fieldState(page, 'channel-form-models')).helper).toContain('*bad');
    const mapping = await fieldState(page, 'channel-form-model-mapping');
    expect(mapping.invalid).toBe(true);
    expect(mapping.helper).toContain('JSON object');
    await screenshot(page, 'admin-channels-dialog-errors');
    expect(await channelsNamed('mock-main')).toEqual([]);

    // "Fetch from provider" asks the mock (with the typed key) for its model list.
    await page.getByTestId('channel-form-clear-models').click();
    await page.getByTestId('channel-form-fetch-models').click();
    await expect
      .poll(() =>
        upstream.received.some(
          (entry) => entry.path === '/v1/models' && entry.authorization.includes('sk-main-upstream'),
        ),
      )
      .toBe(true);
    await addModel(page, 'mock-broken');
    await addModel(page, 'mock-*');
    await page.getByTestId('channel-form-test-model').fill('mock-chat');
    await page.getByTestId('channel-form-model-mapping').fill('{"gpt-mock": "mock-chat"}');
    await page.getByTestId('channel-form-submit').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });

    const saved = await channelNamed('mock-main');
    mainId = saved.id;
    expect(saved.models.split(',')).toEqual(['mock-chat', 'mock-extra', 'mock-broken', 'mock-*']);
    expect(JSON.parse(saved.model_mapping)).toEqual({ 'gpt-mock': 'mock-chat' });
    await page.getByTestId(`channel-row-${mainId}`).waitFor();
    expect(await textOf(page.getByTestId(`channel-name-${mainId}`))).toBe('mock-main');
    expect(await page.getByTestId(`channel-status-${mainId}`).getAttribute('data-state')).toBe('enabled');
    await page.close();
  });

  it('names the models without a price, with the fallback price or the refusal the setting chooses', async () => {
    const page = await openChannels();
    const note = page.getByTestId('channel-unpriced-note');
    const openDialogWith = async (models: string[]) => {
      await page.getByTestId('channel-create').click();
      await page.getByTestId('channel-form').waitFor();
      for (const model of models) await addModel(page, model);
    };
    await openDialogWith(['mock-chat']);
    // Priced models only: no note.
    expect(await note.count()).toBe(0);
    await addModel(page, 'house-7b');
    await note.waitFor();
    expect(await note.getAttribute('data-policy')).toBe('fallback');
    const fallbackText = await textOf(note);
    expect(fallbackText).toContain('house-7b');
    expect(fallbackText).not.toContain('mock-chat');
    expect(fallbackText).toContain('$60 per 1M input tokens and $60 per 1M output tokens');
    // Out of the model list's popup, so the note is what the picture shows.
    await page.getByTestId('channel-form-name').click();
    await note.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-channels-unpriced-note');
    await page.getByTestId('channel-form-cancel').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });

    await root('PUT', '/api/option/', { key: 'UnpricedModelPolicy', value: 'refuse' });
    try {
      await page.reload();
      await page.getByTestId('channel-list').waitFor();
      await openDialogWith(['house-7b']);
      await expect.poll(() => note.getAttribute('data-policy')).toBe('refuse');
      expect(await textOf(note)).toContain('refused (HTTP 400)');
    } finally {
      await root('PUT', '/api/option/', { key: 'UnpricedModelPolicy', value: 'fallback' });
    }
    await page.close();
  });

  it('edits priority in place (refusing a negative one) and the name in the dialog', async () => {
    const page = await openChannels();
    const priority = page.getByTestId(`channel-priority-${mainId}`);
    await priority.fill('-1');
    expect(await priority.getAttribute('aria-invalid')).toBe('true');
    await priority.press('Enter');
    await priority.fill('7');
    expect(await priority.getAttribute('aria-invalid')).toBe('false');
    await priority.press('Enter');
    await expect.poll(async () => (await channelNamed('mock-main')).priority).toBe(7);

    await page.getByTestId(`channel-edit-${mainId}`).click();
    const name = page.getByTestId('channel-form-name');
    await expect.poll(() => name.inputValue()).toBe('mock-main');
    expect(await page.getByTestId('channel-form-priority').inputValue()).toBe('7');
    await name.fill('mock-main-edited');
    await page.getByTestId('channel-form-weight').fill('0');
    await page.getByTestId('channel-form-submit').click();
    await expect.poll(async () => (await fieldState(page, 'channel-form-weight')).invalid).toBe(true);
    await page.getByTestId('channel-form-weight').fill('3');
    await screenshot(page, 'admin-channels-edit-dialog');
    await page.getByTestId('channel-form-submit').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });
    await expect.poll(() => textOf(page.getByTestId(`channel-name-${mainId}`))).toBe('mock-main-edited');
    const saved = await channelNamed('mock-main-edited');
    expect(saved).toMatchObject({ weight: 3, priority: 7 });
    await page.close();
  });

  it('tests the channel against the mock: the time is shown, a failure says why', async () => {
    const page = await openChannels();
    const before = upstream.received.length;
    expect(await textOf(page.getByTestId(`channel-response-${mainId}`))).toBe('Not tested');
    await page.getByTestId(`channel-test-${mainId}`).click();
    await expect.poll(() => textOf(page.getByTestId(`channel-response-${mainId}`))).toMatch(/^\d+\.\d\d s$/);
    expect(await page.getByTestId(`channel-response-${mainId}`).getAttribute('data-tone')).not.toBe('error');
    const probe = upstream.received.slice(before).find((entry) => entry.path === '/v1/chat/completions');
    expect(probe).toMatchObject({ model: 'mock-chat', authorization: 'Bearer sk-main-upstream' });
    expect((await channelNamed('mock-main-edited')).test_time).toBeGreaterThan(0);

    await page.getByTestId(`channel-test-menu-${mainId}`).click();
    await page.getByTestId('channel-test-model-mock-broken').click();
    await expect.poll(() => page.getByTestId(`channel-response-${mainId}`).getAttribute('data-tone')).toBe('error');
    expect(await textOf(page.getByTestId(`channel-response-${mainId}`))).toMatch(/^Failed/);
    expect(upstream.received.some((entry) => entry.model === 'mock-broken')).toBe(true);

    // Balance: OpenAI's billing endpoints on the mock say 20 − 5 = 15 dollars.
    await page.getByTestId(`channel-more-${mainId}`).click();
    await page.getByTestId(`channel-balance-refresh-${mainId}`).click();
    await expect.poll(() => textOf(page.getByTestId(`channel-balance-${mainId}`))).toBe('$15.00');
    await page.close();
  });

  it('disables and enables a channel from its switch', async () => {
    const page = await openChannels();
    await page.getByTestId(`channel-toggle-${mainId}`).click();
    await expect.poll(() => page.getByTestId(`channel-status-${mainId}`).getAttribute('data-state')).toBe('disabled');
    expect((await channelNamed('mock-main-edited')).status).toBe(2);
    await page.getByTestId(`channel-toggle-${mainId}`).click();
    await expect.poll(() => page.getByTestId(`channel-status-${mainId}`).getAttribute('data-state')).toBe('enabled');
    expect((await channelNamed('mock-main-edited')).status).toBe(1);

    // Filters live in the URL: status "disabled" lists nothing now.
    await page.getByTestId('channel-filter-toggle').click();
    await page.getByTestId('channel-filter-status').click();
    await page.getByTestId('channel-filter-status-2').click();
    await page.getByTestId('channel-filter-submit').click();
    await page.getByTestId('channel-empty').waitFor();
    expect(page.url()).toContain('status=2');
    await page.getByTestId('channel-clear-filters').click();
    await page.getByTestId(`channel-row-${mainId}`).waitFor();
    await screenshot(page, 'admin-channels-list');
    await page.close();
  });

  it('folds channels by tag, expands a tag and edits its channels together', async () => {
    const page = await openChannels();
    const pool = await tagChannels('pool');
    expect(pool).toHaveLength(2);
    await page.getByTestId('channel-view-tags').click();
    await page.getByTestId('channel-tag-row-pool').waitFor();
    expect(page.url()).toContain('filter_tag=0');
    for (const channel of pool) expect(await page.getByTestId(`channel-row-${channel.id}`).count()).toBe(0);

    await page.getByTestId('channel-tag-expand-pool').click();
    for (const channel of pool) await page.getByTestId(`channel-row-${channel.id}`).waitFor();
    expect(await textOf(page.getByTestId('channel-tag-enabled-pool'))).toBe('2 / 2 enabled');
    await screenshot(page, 'admin-channels-tag-view');

    // Edit the tag: its two keys are listed; a third line adds a channel, the models change for all.
    await page.getByTestId('channel-tag-edit-pool').click();
    const key = page.getByTestId('channel-form-key');
    await expect.poll(() => key.inputValue()).toBe('sk-pool-1\nsk-pool-2');
    await key.fill('sk-pool-1\nsk-pool-2\nsk-pool-3');
    await addModel(page, 'pool-extra');
    await page.getByTestId('channel-form-submit').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });
    await expect.poll(async () => (await tagChannels('pool')).length).toBe(3);
    for (const channel of await tagChannels('pool')) expect(channel.models).toContain('pool-extra');
    await expect.poll(() => textOf(page.getByTestId('channel-tag-enabled-pool'))).toBe('3 / 3 enabled');

    // Disable all, then set the priority of the whole tag in place.
    await page.getByTestId('channel-tag-more-pool').click();
    await page.getByTestId('channel-tag-disable-pool').click();
    await expect.poll(() => textOf(page.getByTestId('channel-tag-enabled-pool'))).toBe('0 / 3 enabled');
    await page.getByTestId('channel-tag-more-pool').click();
    await page.getByTestId('channel-tag-enable-pool').click();
    await expect.poll(() => textOf(page.getByTestId('channel-tag-enabled-pool'))).toBe('3 / 3 enabled');
    const tagPriority = page.getByTestId('channel-tag-priority-pool');
    await tagPriority.fill('4');
    await tagPriority.press('Enter');
    await expect.poll(async () => (await tagChannels('pool')).map((channel) => channel.priority)).toEqual([4, 4, 4]);
    await page.close();
  });

  it('applies batch actions to the selected rows and tests every channel with visible progress', async () => {
    const page = await openChannels();
    const pool = await tagChannels('pool');
    const [first, second] = pool;
    if (!first || !second) throw new Error('the pool tag lost its channels');
    await page.getByTestId(`channel-select-${first.id}`).check();
    await page.getByTestId(`channel-select-${second.id}`).check();
    await page.getByTestId('channel-batch-bar').waitFor();
    expect(await textOf(page.getByTestId('channel-batch-count'))).toBe('2 selected');
    await screenshot(page, 'admin-channels-batch-bar');

    await page.getByTestId('channel-batch-del-model').click();
    await page.getByTestId('channel-batch-value').fill('pool-only');
    await page.getByTestId('channel-batch-submit').click();
    await page.getByTestId('channel-batch-dialog').waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await tagChannels('pool')).filter((channel) => channel.models.includes('pool-only')).length)
      .toBe(1);

    await page.getByTestId('channel-batch-azure').click();
    await page.getByTestId('channel-batch-value').fill('2024-10-21');
    await page.getByTestId('channel-batch-submit').click();
    await page.getByTestId('channel-batch-dialog').waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await tagChannels('pool')).filter((channel) => channel.other === '2024-10-21').length)
      .toBe(2);

    // Test all: the mock answers slowly so the progress banner can be seen while the run goes.
    upstream.delayMs = 1200;
    const before = upstream.received.length;
    await page.getByTestId('channel-bulk-menu').click();
    await page.getByTestId('channel-test-all').click();
    const progress = page.getByTestId('channel-test-all-progress');
    await progress.waitFor();
    expect(Number(await progress.getAttribute('data-total'))).toBe(5);
    await screenshot(page, 'admin-channels-test-all');
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    upstream.delayMs = 0;
    expect(upstream.received.slice(before).filter((entry) => entry.path === '/v1/chat/completions').length).toBe(5);
    const status = await root<{ running: boolean; done: number; total: number }>('GET', '/api/channel/test/status');
    expect(status).toMatchObject({ running: false, done: 5, total: 5 });

    // Delete the two selected channels, after confirming.
    await page.getByTestId('channel-batch-delete').click();
    await page.getByTestId('channel-confirm-confirm').click();
    await page.getByTestId('channel-batch-bar').waitFor({ state: 'detached' });
    await expect.poll(async () => (await tagChannels('pool')).length).toBe(1);
    expect(await page.getByTestId(`channel-row-${first.id}`).count()).toBe(0);
    await page.close();
  });

  it('copies a channel into the create dialog without its key, and deletes one after confirmation', async () => {
    const page = await openChannels();
    const spare = await channelNamed('spare');
    await page.getByTestId(`channel-more-${spare.id}`).click();
    await page.getByTestId(`channel-copy-${spare.id}`).click();
    await expect.poll(() => page.getByTestId('channel-form-name').inputValue()).toBe('spare_copy');
    expect(await page.getByTestId('channel-form-key').inputValue()).toBe('');
    expect(await page.getByTestId('channel-form-base-url').inputValue()).toBe(upstream.url);
    await page.getByTestId('channel-form-submit').click();
    expect((await fieldState(page, 'channel-form-key')).invalid).toBe(true);
    await page.getByTestId('channel-form-cancel').click();

    await page.getByTestId(`channel-more-${spare.id}`).click();
    await page.getByTestId(`channel-delete-${spare.id}`).click();
    await page.getByTestId('channel-confirm').waitFor();
    await page.getByTestId('channel-confirm-confirm').click();
    await page.getByTestId(`channel-row-${spare.id}`).waitFor({ state: 'detached' });
    expect(await channelsNamed('spare')).toEqual([]);
    await page.close();
  });

  it('fits a 390 px screen in dark mode, as cards', async () => {
    const page = await openChannels({ viewport: phone, theme: 'dark' });
    await page.getByTestId(`channel-row-${mainId}`).waitFor();
    expect(await page.locator('table').count()).toBe(0);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(phone.width);
    await screenshot(page, 'admin-channels-phone-dark');
    await page.close();
  });

  it('speaks Chinese, with the per-type settings of Azure in the dialog', async () => {
    const page = await openChannels({ language: 'zh_CN' });
    expect(await textOf(page.locator('[data-testid=channel-page] h1'))).toBe('渠道');
    await page.getByTestId('channel-create').click();
    await page.getByTestId('channel-form').waitFor();
    const type = page.getByTestId('channel-form-type');
    await type.fill('Azure OpenAI');
    await page.getByTestId('channel-form-type-3').click();
    // Azure's API version comes from /api/providers, labelled in Chinese, and is required.
    await page.getByTestId('channel-form-other').waitFor();
    await page.getByTestId('channel-form-submit').click();
    const other = await fieldState(page, 'channel-form-other');
    expect(other.invalid).toBe(true);
    expect(other.helper).toBe('此类型必须填写');
    expect((await fieldState(page, 'channel-form-base-url')).helper).toBe('此类型需要填写代理地址');
    await screenshot(page, 'admin-channels-dialog-zh_CN');
    await page.close();
  });
});
