/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type MockUpstream, startMockUpstream } from './support/mock-openai.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-prices-01234';
const USER = { username: 'carol', password: 'carol-password-1', display_name: 'Carol' };
const desktop = { width: 1280, height: 860 };
const phone = { width: 400, height: 860 };

/** The answer of `mock-chat`, in the pieces the mock streams it in (markdown on purpose). */
const ANSWER_PIECES = ['**Hello**', ' from', ' the', ' mock', ' upstream', '.'];
const ANSWER_TEXT = 'Hello from the mock upstream.';
const MOCK_USAGE = { prompt_tokens: 11, completion_tokens: 9, total_tokens: 20 };
const REFUSAL = 'The mock refuses this model';

// ---- set-up through the real API ----

let server: RunningServer;
let upstream: MockUpstream;
let browser: Browser;
let admin: AdminApi;

const rootCall = <T>(method: string, path: string, body?: unknown) =>
  apiCall<T>(server.origin, method, path, { token: ROOT_TOKEN }, body);

async function seed(): Promise<void> {
  await admin.createUser(USER);
  const users = await rootCall<{ data: Array<{ id: number; username: string }> }>(
    'GET',
    `/api/user/?keyword=${USER.username}`,
  );
  const carol = users.data.find((user) => user.username === USER.username);
  if (!carol) throw new Error('the test user was not created');
  await admin.addQuota(carol.id, 50_000_000);

  await rootCall('POST', '/api/user_group/', { symbol: 'team', name: 'Team', ratio: 2, api_rate: 600, public: true });
  const prices = [
    { model: 'mock-chat', type: 'tokens', channel_type: 1, input: 1.5, output: 7.5 },
    { model: 'mock-slow', type: 'tokens', channel_type: 1, input: 0.5, output: 1 },
    { model: 'mock-broken', type: 'tokens', channel_type: 1, input: 1, output: 1 },
    { model: 'mock-image', type: 'times', channel_type: 34, input: 25, output: 0 },
  ];
  for (const price of prices) await rootCall('POST', '/api/prices/single', price);
  await rootCall('POST', '/api/channel/', {
    name: 'mock upstream',
    type: 1,
    key: 'sk-mock-upstream-key',
    base_url: upstream.url,
    models: 'mock-chat,mock-slow,mock-broken,mock-image',
    group: 'default,team',
  });
  await rootCall('POST', '/api/channel/', {
    name: 'vip only',
    type: 1,
    key: 'sk-mock-upstream-key',
    base_url: upstream.url,
    models: 'mock-vip-only',
    group: 'vip',
  });
}

beforeAll(async () => {
  upstream = await startMockUpstream({
    model: 'mock-chat',
    pieces: ANSWER_PIECES,
    usage: MOCK_USAGE,
    refusals: { 'mock-broken': REFUSAL },
    held: ['mock-slow'],
  });
  server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
  admin = adminApi(server.origin, ROOT_TOKEN);
  await seed();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.close();
});

// ---- browser helpers ----

interface PageOptions {
  language?: string;
  theme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

async function openPage(options: PageOptions = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: options.viewport ?? desktop,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await page.addInitScript(
    ({ language, theme }) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', language);
      if (theme && !window.localStorage.getItem('theme')) window.localStorage.setItem('theme', theme);
    },
    { language: options.language ?? 'en_US', theme: options.theme ?? '' },
  );
  return page;
}

const signIn = (page: Page) => signInWithForm(page, server.origin, USER.username, USER.password);

async function signedInPage(options: PageOptions = {}): Promise<Page> {
  const page = await openPage(options);
  await signIn(page);
  return page;
}

const row = (page: Page, model: string) => page.getByTestId(`model-price-row-${model}`);
const cellText = async (page: Page, model: string, cell: string) =>
  (await row(page, model).getByTestId(cell).textContent()) ?? '';

// ---- model prices ----

describe('available models and prices', () => {
  it('lists the usable models with $ per 1K and per 1M tokens, per call for `times`, and filters them', async () => {
    const page = await signedInPage();
    await page.goto(`${server.origin}/panel/model_price`);
    await row(page, 'mock-chat').waitFor();

    // Multiplier 1.5 / 7.5 at ratio 1: $0.003 and $0.015 per 1K, $3 and $15 per 1M.
    expect(await cellText(page, 'mock-chat', 'model-price-input')).toContain('$0.003 / 1K tokens');
    expect(await cellText(page, 'mock-chat', 'model-price-input')).toContain('$3.00 / 1M tokens');
    expect(await cellText(page, 'mock-chat', 'model-price-output')).toContain('$0.015 / 1K tokens');
    expect(await cellText(page, 'mock-chat', 'model-price-output')).toContain('$15.00 / 1M tokens');
    expect(await cellText(page, 'mock-chat', 'model-price-owner')).toBe('OpenAI');
    expect(await cellText(page, 'mock-image', 'model-price-input')).toContain('$0.05 / call');
    expect(await cellText(page, 'mock-image', 'model-price-owner')).toBe('Midjourney');
    // The vip channel is not for Carol's group.
    expect(await row(page, 'mock-vip-only').count()).toBe(0);
    expect(await page.getByTestId('model-price-count').textContent()).toBe('Models: 4');
    await screenshot(page, 'prices-model-price');

    await page.getByTestId('model-price-search').fill('IMAGE');
    await expect.poll(() => page.locator('[data-testid^=model-price-row-]').count()).toBe(1);
    expect(await row(page, 'mock-image').count()).toBe(1);
    await page.getByTestId('model-price-search').fill('no-such-model');
    await page.getByTestId('model-price-empty').waitFor();
    await page.getByTestId('model-price-clear').click();
    await expect.poll(() => page.locator('[data-testid^=model-price-row-]').count()).toBe(4);

    await page.getByTestId('model-price-owner-Midjourney').click();
    await expect.poll(() => page.locator('[data-testid^=model-price-row-]').count()).toBe(1);
    await page.getByTestId('model-price-owner-all').click();
    await expect.poll(() => page.locator('[data-testid^=model-price-row-]').count()).toBe(4);

    await row(page, 'mock-chat').getByTestId('model-price-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('mock-chat');
    await page.close();
  });

  it('applies the ratio of the chosen group', async () => {
    const page = await signedInPage();
    await page.goto(`${server.origin}/panel/model_price`);
    await row(page, 'mock-chat').waitFor();
    expect(await page.getByTestId('model-price-ratio').textContent()).toContain('×1');
    await page.getByTestId('model-price-group').click();
    await page.getByTestId('model-price-group-team').click();
    await expect.poll(() => cellText(page, 'mock-chat', 'model-price-input')).toContain('$0.006 / 1K tokens');
    expect(await cellText(page, 'mock-chat', 'model-price-input')).toContain('$6.00 / 1M tokens');
    expect(await cellText(page, 'mock-image', 'model-price-input')).toContain('$0.10 / call');
    expect(await page.getByTestId('model-price-ratio').textContent()).toContain('×2');
    await page.close();
  });

  it('looks right in dark mode, in Chinese and on a 400 px screen', async () => {
    const dark = await signedInPage({ theme: 'dark' });
    await dark.goto(`${server.origin}/panel/model_price`);
    await row(dark, 'mock-chat').waitFor();
    await screenshot(dark, 'prices-model-price-dark');
    await dark.close();

    const chinese = await signedInPage({ language: 'zh_CN' });
    await chinese.goto(`${server.origin}/panel/model_price`);
    await row(chinese, 'mock-chat').waitFor();
    expect(await chinese.locator('[data-testid=model-price-page] h1').textContent()).toBe('可用模型');
    expect(await cellText(chinese, 'mock-image', 'model-price-input')).toContain('$0.05 / 次');
    await screenshot(chinese, 'prices-model-price-zh_CN');
    await chinese.close();

    const small = await signedInPage({ viewport: phone });
    await small.goto(`${server.origin}/panel/model_price`);
    await row(small, 'mock-chat').waitFor();
    expect(await small.locator('table').count()).toBe(0);
    expect(await cellText(small, 'mock-chat', 'model-price-input')).toContain('$0.003 / 1K tokens');
    const width = await small.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(phone.width);
    await screenshot(small, 'prices-model-price-phone');
    await small.close();
  });
});

// ---- playground ----

async function chooseModel(page: Page, model: string): Promise<void> {
  await page.getByTestId('playground').waitFor();
  const toggle = page.getByTestId('playground-settings-toggle');
  if (await toggle.isVisible()) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }
  const input = page.getByTestId('playground-model');
  await expect.poll(() => input.inputValue()).not.toBe('');
  await input.click();
  await input.fill(model);
  await page.getByTestId(`playground-model-option-${model}`).click();
  await expect.poll(() => input.inputValue()).toBe(model);
}

async function ask(page: Page, text: string): Promise<void> {
  await page.getByTestId('playground-input').fill(text);
  await page.getByTestId('playground-input').press('Enter');
}

const lastAnswer = (page: Page) => page.getByTestId('playground-message-assistant').last();

describe('the playground', () => {
  it('streams an answer through the playground key, with markdown and usage', async () => {
    const page = await signedInPage();
    await page.goto(`${server.origin}/panel/playground`);
    await page.getByTestId('playground-empty').waitFor();
    await chooseModel(page, 'mock-chat');
    await page.getByTestId('playground-system').fill('Answer briefly.');
    await page.getByTestId('playground-temperature').focus();
    for (let step = 0; step < 5; step++) await page.keyboard.press('ArrowLeft');

    await ask(page, 'Say hello');
    // Text shows while the stream is still open: it arrives in pieces, not at the end.
    await page
      .locator('[data-testid=playground-message-assistant][data-state=streaming] [data-testid=playground-answer]')
      .waitFor();
    await page.getByTestId('playground-stop').waitFor();
    await expect.poll(() => lastAnswer(page).getAttribute('data-state')).toBe('done');
    expect(await lastAnswer(page).getByTestId('playground-answer').textContent()).toBe(ANSWER_TEXT);
    expect(await lastAnswer(page).locator('strong').textContent()).toBe('Hello');
    expect(await page.getByTestId('playground-usage').textContent()).toBe('Tokens: 11 in · 9 out · 20 total');
    expect(await page.getByTestId('playground-message-user').textContent()).toBe('Say hello');

    const sent = upstream.bodies.at(-1) ?? {};
    expect(sent.model).toBe('mock-chat');
    expect(sent.stream).toBe(true);
    expect(sent.temperature).toBeCloseTo(0.5);
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Say hello' },
    ]);
    await screenshot(page, 'playground-answer');

    // The follow-up carries the conversation so far.
    await ask(page, 'Again');
    await expect.poll(() => page.getByTestId('playground-message-assistant').count()).toBe(2);
    await expect.poll(() => lastAnswer(page).getAttribute('data-state')).toBe('done');
    const followUp = (upstream.bodies.at(-1)?.messages ?? []) as Array<{ role: string; content: string }>;
    expect(followUp.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(followUp[2]?.content).toBe(`**Hello** from the mock upstream.`);

    await page.getByTestId('playground-new-chat').click();
    await page.getByTestId('playground-empty').waitFor();
    expect(await page.getByTestId('playground-message-user').count()).toBe(0);
    await page.close();
  });

  it('stops a slow stream with the stop button', async () => {
    const page = await signedInPage();
    await page.goto(`${server.origin}/panel/playground`);
    await chooseModel(page, 'mock-slow');
    await ask(page, 'Take your time');
    // The mock sends the whole text, then holds the stream open: it ends only when someone hangs up.
    await expect.poll(async () => (await lastAnswer(page).textContent()) ?? '').toContain(ANSWER_TEXT);
    expect(await lastAnswer(page).getAttribute('data-state')).toBe('streaming');
    await page.getByTestId('playground-stop').click();
    await expect.poll(() => lastAnswer(page).getAttribute('data-state')).toBe('stopped');
    await page.getByTestId('playground-stopped').waitFor();
    const cut = await lastAnswer(page).getByTestId('playground-answer').textContent();
    expect(cut).toBe(ANSWER_TEXT);
    // The gateway hung up on the upstream too; from then on nothing more can reach the page.
    await expect.poll(() => upstream.heldStreamsCut, { timeout: 10_000 }).toBe(1);
    expect(await lastAnswer(page).getByTestId('playground-answer').textContent()).toBe(cut);
    await screenshot(page, 'playground-stopped');
    await page.getByTestId('playground-send').waitFor();
    await page.close();
  });

  it('shows an upstream error inline with the server’s message', async () => {
    const page = await signedInPage();
    await page.goto(`${server.origin}/panel/playground`);
    await chooseModel(page, 'mock-broken');
    await ask(page, 'Will this work?');
    await page.getByTestId('playground-error').waitFor();
    expect(await page.getByTestId('playground-error').textContent()).toContain(REFUSAL);
    expect(await lastAnswer(page).getAttribute('data-state')).toBe('failed');
    await screenshot(page, 'playground-error');
    await page.close();
  });

  it('is at /playground in the public layout for signed-in visitors only', async () => {
    const anonymous = await openPage();
    await anonymous.goto(`${server.origin}/playground`);
    await anonymous.getByTestId('playground-signin').waitFor();
    await anonymous.getByTestId('playground-signin-button').click();
    await anonymous.waitForURL('**/login');
    await anonymous.close();

    const page = await signedInPage();
    await page.goto(`${server.origin}/playground`);
    await page.getByTestId('public-nav-playground').waitFor();
    await chooseModel(page, 'mock-chat');
    await ask(page, 'Hello from the public page');
    await expect.poll(() => lastAnswer(page).getAttribute('data-state')).toBe('done');
    expect(await lastAnswer(page).getByTestId('playground-answer').textContent()).toBe(ANSWER_TEXT);
    await screenshot(page, 'playground-public');
    await page.close();
  });

  it('looks right in dark mode, in Chinese and on a 400 px screen', async () => {
    for (const [name, options] of [
      ['playground-dark', { theme: 'dark' }],
      ['playground-zh_CN', { language: 'zh_CN' }],
      ['playground-phone', { viewport: phone }],
    ] as const) {
      const page = await signedInPage(options);
      await page.goto(`${server.origin}/panel/playground`);
      await chooseModel(page, 'mock-chat');
      await ask(page, 'Say hello');
      await expect.poll(() => lastAnswer(page).getAttribute('data-state')).toBe('done');
      if (name === 'playground-phone') {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(phone.width);
        // chooseModel unfolded the settings; folded again, the picture shows the conversation.
        const toggle = page.getByTestId('playground-settings-toggle');
        await toggle.click();
        await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
      }
      await screenshot(page, name);
      await page.close();
    }
  });
});
