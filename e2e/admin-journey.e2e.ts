/// <reference lib="dom" />
/**
 * Issue 5, "done when": an administrator sets One Hub up from an empty database to serving a user
 * entirely from the console. Every change below is made by clicking through the console; the
 * management API is only used to read back what the console did and to assert on it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatQuota, optionDefinitions } from '@one-hub/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-initial-password';
/** Only for reading back and asserting; nothing is changed with it. */
const ROOT_TOKEN = 'e2e-root-access-token-journey-0001';
const SYSTEM_NAME = 'Journey Hub';
const NOTICE_HEADLINE = 'Welcome to Journey Hub';
const NOTICE = `**${NOTICE_HEADLINE}.** Redeem your gift code on the Top-up page to start.`;
const CHANNEL_NAME = 'Mock upstream';
const UPSTREAM_KEY = 'sk-journey-upstream-key';
const MODEL = 'mock-chat';
/** Multipliers of the price: 500 → $1.00 per 1K input tokens, 1000 → $2.00 per 1K output tokens. */
const PRICE = { input: 500, output: 1000 };
const CAROL = { username: 'carol', password: 'carol-password-1', display_name: 'Carol Journey' };
const BALANCE_DOLLARS = 10;
const BALANCE_REMARK = 'Starter balance for the journey';
const CODE_NAME = 'Journey gift';
const CODE_DOLLARS = 5;
const TOKEN_NAME = 'carol-app';
/** The site shows currency by default: $1 is 500 000 quota. */
const QUOTA_PER_DOLLAR = 500_000;
const desktop = { width: 1366, height: 900 };

/** What the mock streams, and the usage it reports for every answer. */
const ANSWER_PIECES = ['Hello', ' Carol,', ' this', ' is', ' the', ' mock', ' upstream.'];
const ANSWER_TEXT = ANSWER_PIECES.join('');
const USAGE = { prompt_tokens: 11, completion_tokens: 9, total_tokens: 20 };
/** 11 × 500 + 9 × 1000 at group ratio 1. */
const COST_PER_CALL = USAGE.prompt_tokens * PRICE.input + USAGE.completion_tokens * PRICE.output;

// ---- a tiny OpenAI-compatible upstream ----

interface MockUpstream {
  url: string;
  received: Array<{ path: string; model: string; stream: boolean; authorization: string }>;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: 'chatcmpl-journey',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

async function streamAnswer(response: ServerResponse, model: string): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chunk(model, { role: 'assistant', content: '' }));
  for (const piece of ANSWER_PIECES) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    response.write(chunk(model, { content: piece }));
  }
  response.write(chunk(model, {}, 'stop'));
  response.write(
    `data: ${JSON.stringify({ id: 'chatcmpl-journey', object: 'chat.completion.chunk', model, choices: [], usage: USAGE })}\n\n`,
  );
  response.end('data: [DONE]\n\n');
}

async function startMockUpstream(): Promise<MockUpstream> {
  const mock: MockUpstream = { url: '', received: [], close: async () => {} };
  const server: Server = createServer((request, response) => {
    void readJson(request).then(async (body) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      const model = String(body.model ?? '');
      mock.received.push({
        path,
        model,
        stream: body.stream === true,
        authorization: request.headers.authorization ?? '',
      });
      if (request.method !== 'POST' || path !== '/v1/chat/completions' || model !== MODEL) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      } else if (body.stream) {
        await streamAnswer(response, model);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-journey',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: ANSWER_TEXT }, finish_reason: 'stop' }],
            usage: USAGE,
          }),
        );
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

// ---- read-back through the management API (never used to change anything) ----

interface ChannelRow {
  id: number;
  name: string;
  type: number;
  base_url: string;
  models: string;
  group: string;
  test_model: string;
  status: number;
  test_time: number;
}
interface UserRow {
  id: number;
  username: string;
  display_name: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
}
interface LogRow {
  id: number;
  type: number;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  content: string;
  prompt_tokens: number;
  completion_tokens: number;
}
interface CodeRow {
  id: number;
  key: string;
  name: string;
  quota: number;
  status: number;
  redeemed_username: string;
}

let server: RunningServer;
let upstream: MockUpstream;
let browser: Browser;

const read = <T>(path: string) => apiCall<T>(server.origin, 'GET', path, { token: ROOT_TOKEN });
const paged = async <T>(path: string) => (await read<{ data: T[]; total_count: number }>(path)).data;
const findUser = async (username: string) =>
  (await paged<UserRow>(`/api/user/?keyword=${encodeURIComponent(username)}&size=100`)).find(
    (user) => user.username === username,
  );
const options = async () =>
  new Map((await read<Array<{ key: string; value: string }>>('/api/option/')).map((entry) => [entry.key, entry.value]));
const consumeLogs = (username: string) =>
  paged<LogRow>(`/api/log/?log_type=2&username=${encodeURIComponent(username)}&size=100`);

// ---- browser helpers ----

async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: desktop,
    locale: 'en-US',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await context.addInitScript(() => {
    if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', 'en_US');
  });
  return context;
}

const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
/** The exact quota behind a displayed amount (the Quota component's tooltip). */
const exactQuota = async (page: Page, testId: string) =>
  Number(((await page.getByTestId(testId).first().getAttribute('title')) ?? '').replace(/\D/g, ''));
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const closed = (page: Page, testId: string) => page.getByTestId(testId).waitFor({ state: 'hidden' });
const money = (quota: number) => formatQuota(quota, { quotaPerUnit: QUOTA_PER_DOLLAR, displayInCurrency: true });

/** A full-page screenshot from the top, once dialogs and toasts have finished moving. */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(350);
  await screenshot(page, `journey-${name}`);
}

/** Goes to a screen the way a person does: through the drawer, opening its collapse first. */
async function openFromMenu(page: Page, id: string, collapse?: string): Promise<void> {
  const item = page.getByTestId(`menu-${id}`);
  if (collapse && !(await item.isVisible())) await page.getByTestId(`menu-${collapse}`).click();
  await item.click();
  await page.waitForURL((url) => url.pathname === `/panel/${id}`);
}

/** Waits until `read` answers something `done` accepts (logs and roll-ups settle in batches). */
async function settle<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not settled after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  upstream = await startMockUpstream();
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    CRITICAL_RATE_LIMIT: '1000',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.close();
});

// ---- the journey ----

describe('from an empty database to serving a user, entirely from the console', () => {
  let rootContext: BrowserContext;
  let userContext: BrowserContext;
  let admin: Page;
  let user: Page;
  let channelId = 0;
  let carolId = 0;
  let code = '';
  let userKey = '';

  beforeAll(async () => {
    rootContext = await newContext();
    userContext = await newContext();
    admin = await rootContext.newPage();
    user = await userContext.newPage();
  });
  afterAll(async () => {
    await rootContext?.close();
    await userContext?.close();
  });

  it('starts empty: root is the only user, with no channel, price, code or request', async () => {
    expect((await paged<UserRow>('/api/user/?size=100')).map((row) => row.username)).toEqual(['root']);
    expect(await read<{ total_count: number }>('/api/channel/?filter_tag=3')).toMatchObject({ total_count: 0 });
    expect((await read<Array<{ model: string }>>('/api/prices')).some((price) => price.model === MODEL)).toBe(false);
    expect(await read<{ total_count: number }>('/api/redemption/')).toMatchObject({ total_count: 0 });
    expect(await read<{ total_count: number }>('/api/log/?log_type=2')).toMatchObject({ total_count: 0 });
    expect(await read<string>('/api/notice')).toBe('');
  });

  it('1. root signs in with the initial password, names the system, posts a notice and checks registration', async () => {
    await signInWithForm(admin, server.origin, 'root', ROOT_PASSWORD);
    await admin.getByTestId('avatar-menu').waitFor();

    await openFromMenu(admin, 'setting');
    await admin.getByTestId('setting-panel-operation').waitFor();
    await admin.getByTestId('setting-tab-other').click();
    await admin.getByTestId('setting-panel-other').waitFor();
    await admin.getByTestId('setting-field-SystemName').fill(SYSTEM_NAME);
    await admin.getByTestId('setting-save-branding').click();
    await admin.getByTestId('setting-saved-branding').waitFor();
    expect(await admin.getByTestId('setting-saved-branding').getAttribute('data-keys')).toBe('SystemName');
    await expect.poll(() => admin.title()).toBe(SYSTEM_NAME);
    await expect.poll(async () => (await admin.locator('header').first().textContent()) ?? '').toContain(SYSTEM_NAME);

    await admin.getByTestId('setting-field-Notice').fill(NOTICE);
    await admin.getByTestId('setting-preview-Notice').click();
    await expect.poll(() => text(admin, 'setting-preview-box-Notice')).toContain(NOTICE_HEADLINE);
    await admin.getByTestId('setting-save-notice').click();
    await admin.getByTestId('setting-saved-notice').waitFor();
    // The new notice opens by itself, for root too; acknowledging it closes it.
    await admin.getByTestId('notice-dialog').waitFor();
    expect(await text(admin, 'notice-content')).toContain(NOTICE_HEADLINE);
    await admin.getByTestId('notice-close').click();
    await closed(admin, 'notice-dialog');
    await shot(admin, '01-settings-other');

    await admin.getByTestId('setting-tab-system').click();
    await admin.getByTestId('setting-panel-system').waitFor();
    let changed = false;
    for (const key of ['RegisterEnabled', 'PasswordRegisterEnabled']) {
      const toggle = admin.getByTestId(`setting-field-${key}`);
      if (!(await toggle.isChecked())) {
        await toggle.check();
        changed = true;
      }
    }
    if (changed) {
      await admin.getByTestId('setting-save-access').click();
      await admin.getByTestId('setting-saved-access').waitFor();
    }
    expect(await admin.getByTestId('setting-field-PasswordRegisterEnabled').isChecked()).toBe(true);

    const stored = await options();
    expect(stored.get('SystemName')).toBe(SYSTEM_NAME);
    expect(stored.get('Notice')).toBe(NOTICE);
    expect(stored.get('RegisterEnabled')).toBe('true');
    expect(stored.get('PasswordRegisterEnabled')).toBe('true');
    expect(await read<string>('/api/notice')).toBe(NOTICE);
  });

  it('2. creates a channel for the mock upstream and tests it', async () => {
    await openFromMenu(admin, 'channel');
    await admin.getByTestId('channel-empty').waitFor();
    await admin.getByTestId('channel-create').click();
    await admin.getByTestId('channel-form').waitFor();
    await expect.poll(() => admin.getByTestId('channel-form-type').inputValue()).toBe('OpenAI');
    await admin.getByTestId('channel-form-name').fill(CHANNEL_NAME);
    await admin.getByTestId('channel-form-base-url').fill(upstream.url);
    await admin.getByTestId('channel-form-key').fill(UPSTREAM_KEY);
    await admin.getByTestId('channel-form-models').fill(MODEL);
    await admin.getByTestId('channel-form-models').press('Enter');
    await admin.getByTestId('channel-form-test-model').fill(MODEL);
    await admin.getByTestId('channel-form-test-model').press('Tab');
    await shot(admin, '02-channel-dialog');
    await admin.getByTestId('channel-form-submit').click();
    await admin.getByTestId('channel-form').waitFor({ state: 'detached' });

    const [saved, ...others] = await paged<ChannelRow>('/api/channel/?filter_tag=3&size=100');
    expect(others).toEqual([]);
    expect(saved).toMatchObject({
      name: CHANNEL_NAME,
      type: 1,
      base_url: upstream.url,
      models: MODEL,
      group: 'default',
      test_model: MODEL,
      status: 1,
      test_time: 0,
    });
    channelId = saved?.id ?? 0;
    await admin.getByTestId(`channel-row-${channelId}`).waitFor();
    expect(await text(admin, `channel-name-${channelId}`)).toBe(CHANNEL_NAME);

    const before = upstream.received.length;
    await admin.getByTestId(`channel-test-${channelId}`).click();
    await expect.poll(() => text(admin, `channel-response-${channelId}`)).toMatch(/^\d+\.\d\d s$/);
    expect(await admin.getByTestId(`channel-response-${channelId}`).getAttribute('data-tone')).not.toBe('error');
    expect(upstream.received.slice(before)).toContainEqual({
      path: '/v1/chat/completions',
      model: MODEL,
      stream: false,
      authorization: `Bearer ${UPSTREAM_KEY}`,
    });
    const tested = await paged<ChannelRow>('/api/channel/?filter_tag=3&size=100');
    expect(tested[0]?.test_time).toBeGreaterThan(0);
    await admin.mouse.move(0, 0);
    await shot(admin, '02-channel-tested');
  });

  it('3. prices the model in Pricing', async () => {
    await openFromMenu(admin, 'pricing', 'operation');
    await admin.getByTestId('pricing-list').waitFor();
    await admin.getByTestId('pricing-create').click();
    await admin.getByTestId('pricing-form').waitFor();
    await admin.getByTestId('pricing-form-model').fill(MODEL);
    await admin.getByTestId('pricing-form-channel-type').fill('OpenAI');
    await admin.getByTestId('pricing-form-channel-type-option-1').click();
    await admin.getByTestId('pricing-form-input').fill(String(PRICE.input));
    await admin.getByTestId('pricing-form-output').fill(String(PRICE.output));
    await expect.poll(() => text(admin, 'pricing-form-input-hint')).toContain('$1.00 / 1K tokens');
    await admin.getByTestId('pricing-form-submit').click();
    await closed(admin, 'pricing-dialog');

    await admin.getByTestId('pricing-search').fill(MODEL);
    const row = admin.getByTestId(`pricing-row-${MODEL}`);
    await row.waitFor();
    expect(((await row.getByTestId('pricing-input-per-1k').textContent()) ?? '').trim()).toBe('$1.00 / 1K tokens');
    expect(((await row.getByTestId('pricing-output-per-1k').textContent()) ?? '').trim()).toBe('$2.00 / 1K tokens');
    expect(((await row.getByTestId('pricing-owner').textContent()) ?? '').trim()).toBe('OpenAI');
    const price = (await read<Array<Record<string, unknown>>>('/api/prices')).find((entry) => entry.model === MODEL);
    expect(price).toMatchObject({ type: 'tokens', channel_type: 1, input: PRICE.input, output: PRICE.output });
    await shot(admin, '03-pricing');
  });

  it('4. keeps the default group, creates the user, gives a balance with a remark and makes a gift code', async () => {
    // User groups: the built-in `default` group (ratio 1) is the one the channel serves.
    await openFromMenu(admin, 'user_group', 'operation');
    const groups = await paged<{ id: number; symbol: string; ratio: number; enable: boolean }>(
      '/api/user_group/?size=100',
    );
    const fallback = groups.find((group) => group.symbol === 'default');
    expect(fallback).toMatchObject({ ratio: 1, enable: true });
    await admin.getByTestId(`user-group-row-${fallback?.id}`).waitFor();
    expect(await text(admin, `user-group-ratio-${fallback?.id}`)).toBe('×1');

    // Users: create Carol in the default group.
    await openFromMenu(admin, 'user');
    await admin.locator('[data-testid^=user-row-]').first().waitFor();
    await admin.getByTestId('user-create').click();
    await admin.getByTestId('user-form').waitFor();
    await admin.getByTestId('user-form-username').fill(CAROL.username);
    await admin.getByTestId('user-form-password').fill(CAROL.password);
    await admin.getByTestId('user-form-display-name').fill(CAROL.display_name);
    await admin.getByTestId('user-form-submit').click();
    await closed(admin, 'user-dialog');
    const created = await findUser(CAROL.username);
    expect(created).toMatchObject({ display_name: CAROL.display_name, group: 'default' });
    carolId = created?.id ?? 0;
    const startQuota = created?.quota ?? 0;
    await admin.getByTestId(`user-row-${carolId}`).waitFor();

    // Give her a balance, with a remark.
    const added = BALANCE_DOLLARS * QUOTA_PER_DOLLAR;
    await admin.getByTestId(`user-quota-action-${carolId}`).click();
    await admin.getByTestId('user-quota-form').waitFor();
    await admin.getByTestId('user-quota-add').click();
    await admin.getByTestId('user-quota-amount').fill(String(BALANCE_DOLLARS));
    await admin.getByTestId('user-quota-remark').fill(BALANCE_REMARK);
    await expect
      .poll(() => admin.getByTestId('user-quota-after').getAttribute('data-quota'))
      .toBe(String(startQuota + added));
    await shot(admin, '04-user-balance');
    await admin.getByTestId('user-quota-submit').click();
    await closed(admin, 'user-quota-dialog');
    await expect.poll(() => exactQuota(admin, `user-quota-${carolId}`)).toBe(startQuota + added);
    expect((await findUser(CAROL.username))?.quota).toBe(startQuota + added);
    const manageLogs = await paged<LogRow>(`/api/log/?username=${CAROL.username}&size=100`);
    expect(manageLogs.some((log) => log.content.includes(BALANCE_REMARK) && log.quota === added)).toBe(true);

    // Redemption codes: one $5 gift code, copied from the dialog that shows it.
    await openFromMenu(admin, 'redemption', 'paySetting');
    await admin.getByTestId('redemption-empty').waitFor();
    await admin.getByTestId('redemption-create').click();
    await admin.getByTestId('redemption-form').waitFor();
    await admin.getByTestId('redemption-form-name').fill(CODE_NAME);
    await admin.getByTestId('redemption-form-quota').fill(String(CODE_DOLLARS));
    await admin.getByTestId('redemption-form-count').fill('1');
    await admin.getByTestId('redemption-form-submit').click();
    await admin.getByTestId('redemption-created-dialog').waitFor();
    const shown = admin.getByTestId('redemption-created-code');
    await expect.poll(() => shown.count()).toBe(1);
    code = ((await shown.textContent()) ?? '').trim();
    await admin.getByTestId('redemption-created-copy').click();
    await expect.poll(() => clipboard(admin)).toBe(code);
    await shot(admin, '04-redemption-code');
    await admin.getByTestId('redemption-created-close').click();
    await closed(admin, 'redemption-created-dialog');

    const codes = await paged<CodeRow>(`/api/redemption/?keyword=${encodeURIComponent(CODE_NAME)}&size=100`);
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ key: code, name: CODE_NAME, quota: CODE_DOLLARS * QUOTA_PER_DOLLAR, status: 1 });
    await admin.getByTestId(`redemption-row-${codes[0]?.id}`).waitFor();
    expect(await admin.getByTestId(`redemption-status-${codes[0]?.id}`).getAttribute('data-state')).toBe('unredeemed');
  });

  it('5. root signs out; the user signs in, reads the notice, redeems the code, makes a key and chats', async () => {
    await admin.getByTestId('avatar-menu').click();
    await admin.getByTestId('sign-out').click();
    await admin.waitForURL((url) => !url.pathname.startsWith('/panel'));
    await admin.goto(`${server.origin}/panel/channel`);
    await admin.waitForURL('**/login');

    // Carol, on her own device: the notice greets her as soon as she opens the site.
    await user.goto(`${server.origin}/login`);
    await user.getByTestId('notice-dialog').waitFor();
    expect(await text(user, 'notice-content')).toContain(NOTICE_HEADLINE);
    await expect.poll(() => user.title()).toBe(SYSTEM_NAME);
    await shot(user, '05-user-notice');
    await user.getByTestId('notice-close').click();
    await closed(user, 'notice-dialog');
    await signInWithForm(user, server.origin, CAROL.username, CAROL.password);
    await user.getByTestId('avatar-menu').waitFor();
    // Read once, it stays available from the top bar.
    await user.getByTestId('notice-button').click();
    await user.getByTestId('notice-dialog').waitFor();
    expect(await text(user, 'notice-content')).toContain(NOTICE_HEADLINE);
    await user.getByTestId('notice-close').click();
    await closed(user, 'notice-dialog');
    // Not an administrator: no admin screens in her menu.
    expect(await user.getByTestId('menu-channel').count()).toBe(0);

    // Top-up: the balance root gave, then the redeemed code on top.
    const before = BALANCE_DOLLARS * QUOTA_PER_DOLLAR;
    const after = before + CODE_DOLLARS * QUOTA_PER_DOLLAR;
    await openFromMenu(user, 'topup');
    await expect.poll(() => text(user, 'topup-balance')).toBe(money(before));
    await user.getByTestId('topup-code').fill(code);
    await user.getByTestId('topup-redeem').click();
    await expect.poll(() => text(user, 'topup-balance')).toBe(money(after));
    expect((await findUser(CAROL.username))?.quota).toBe(after);
    const [redeemed] = await paged<CodeRow>(`/api/redemption/?keyword=${encodeURIComponent(CODE_NAME)}&size=100`);
    expect(redeemed).toMatchObject({ status: 3, redeemed_username: CAROL.username });
    await shot(user, '05-user-topup');

    // Tokens: an API key for her own app.
    await openFromMenu(user, 'token');
    await user.getByTestId('token-create').click();
    await user.getByTestId('token-form').waitFor();
    await user.getByTestId('token-form-name').fill(TOKEN_NAME);
    await user.getByTestId('token-form-submit').click();
    await user.getByTestId('token-created-key').waitFor();
    userKey = await text(user, 'token-created-key');
    expect(userKey).toMatch(/^sk-/);
    await user.getByTestId('token-created-copy').click();
    await expect.poll(() => clipboard(user)).toBe(userKey);
    await shot(user, '05-user-token');
    await user.getByTestId('token-created-close').click();
    await user.locator('[data-testid^=token-name-]', { hasText: TOKEN_NAME }).first().waitFor();

    // Her app uses the key against the gateway (the relay, not the management API).
    const relayed = await fetch(`${server.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello from my app' }] }),
    });
    expect(relayed.status).toBe(200);
    const answer = (await relayed.json()) as { choices: Array<{ message: { content: string } }> };
    expect(answer.choices[0]?.message.content).toBe(ANSWER_TEXT);

    // Playground: the answer streams in, piece by piece.
    await openFromMenu(user, 'playground');
    await user.getByTestId('playground').waitFor();
    const toggle = user.getByTestId('playground-settings-toggle');
    if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const modelInput = user.getByTestId('playground-model');
    await expect.poll(() => modelInput.inputValue()).not.toBe('');
    await modelInput.click();
    await modelInput.fill(MODEL);
    await user.getByTestId(`playground-model-option-${MODEL}`).click();
    await expect.poll(() => modelInput.inputValue()).toBe(MODEL);
    const streamedBefore = upstream.received.filter((entry) => entry.stream).length;
    await user.getByTestId('playground-input').fill('Say hello to Carol');
    await user.getByTestId('playground-input').press('Enter');
    const last = user.getByTestId('playground-message-assistant').last();
    // Text is on screen while the stream is still open.
    await user
      .locator('[data-testid=playground-message-assistant][data-state=streaming] [data-testid=playground-answer]')
      .waitFor();
    expect(ANSWER_TEXT.startsWith(await text(user, 'playground-answer'))).toBe(true);
    await expect.poll(() => last.getAttribute('data-state'), { timeout: 15_000 }).toBe('done');
    expect(await last.getByTestId('playground-answer').textContent()).toBe(ANSWER_TEXT);
    expect(await text(user, 'playground-usage')).toBe('Tokens: 11 in · 9 out · 20 total');
    expect(upstream.received.filter((entry) => entry.stream).length).toBe(streamedBefore + 1);
    await shot(user, '05-user-playground');
  });

  it('6. root signs back in and finds the user’s requests in Logs and in Analytics', async () => {
    // Consume logs are written in batches: wait for both calls (her app's and the playground's).
    const logs = await settle(
      () => consumeLogs(CAROL.username),
      (rows) => rows.length === 2,
    );
    for (const log of logs) expect(log).toMatchObject({ model_name: MODEL, quota: COST_PER_CALL, prompt_tokens: 11 });
    expect(new Set(logs.map((log) => log.token_name)).has(TOKEN_NAME)).toBe(true);
    const spent = 2 * COST_PER_CALL;
    await settle(
      () => findUser(CAROL.username),
      (row) => row?.used_quota === spent,
    );

    await signInWithForm(admin, server.origin, 'root', ROOT_PASSWORD);
    await openFromMenu(admin, 'log');
    await admin.getByTestId('log-filter-username').fill(CAROL.username);
    await admin.getByTestId('log-filter-submit').click();
    await admin.waitForURL(/username=carol/);
    for (const log of logs) {
      await admin.getByTestId(`log-row-${log.id}`).waitFor();
      expect(await text(admin, `log-user-${log.id}`)).toBe(CAROL.username);
      expect(await text(admin, `log-model-${log.id}`)).toBe(MODEL);
      expect(await text(admin, `log-token-${log.id}`)).toBe(log.token_name);
      expect(await exactQuota(admin, `log-quota-${log.id}`)).toBe(COST_PER_CALL);
    }
    const appLog = logs.find((log) => log.token_name === TOKEN_NAME);
    expect(await text(admin, `log-input-${appLog?.id}`)).toBe('11');
    expect(await text(admin, `log-output-${appLog?.id}`)).toBe('9');
    await expect.poll(() => exactQuota(admin, 'log-stat-quota')).toBe(spent);
    await shot(admin, '06-logs');

    // Analytics reads a roll-up that also settles in the background.
    const now = Math.floor(Date.now() / 1000);
    await settle(
      () =>
        read<{ total_request_count: number }>(
          `/api/analytics/top_users?start_timestamp=${now - 86_400}&end_timestamp=${now + 86_400}`,
        ),
      (top) => top.total_request_count === 2,
    );
    await openFromMenu(admin, 'analytics');
    await admin.getByTestId('analytics-card-users').waitFor();
    expect(await text(admin, 'analytics-card-users')).toBe('2');
    expect(await text(admin, 'analytics-card-channels')).toBe('1');
    await admin.getByTestId('analytics-trend-chart').waitFor();
    await expect.poll(() => text(admin, 'analytics-period-requests')).toBe('2');
    await admin.getByTestId('analytics-breakdown-metric-requests').click();
    await expect.poll(() => text(admin, `analytics-breakdown-value-${MODEL}`)).toBe('2');
    await admin.getByTestId('analytics-breakdown-group-channel').click();
    await expect.poll(() => text(admin, `analytics-breakdown-value-${CHANNEL_NAME}`)).toBe('2');
    await admin.getByTestId('analytics-breakdown-group-model').click();
    await admin.getByTestId(`analytics-breakdown-item-${MODEL}`).waitFor();
    await shot(admin, '06-analytics');

    await admin.getByTestId('analytics-tab-users').click();
    const carol = admin.getByTestId(`analytics-top-user-${CAROL.username}`);
    await carol.waitFor();
    expect(((await carol.getByTestId('analytics-top-user-requests').textContent()) ?? '').trim()).toBe('2');
    expect(((await carol.getByTestId('analytics-top-user-quota').textContent()) ?? '').trim()).toBe(money(spent));
    await shot(admin, '06-analytics-users');
  });
});

// ---- the admin screens in Chinese and Japanese ----

/** Product, vendor and protocol names that stay in Latin letters in every language. */
const PRODUCT_NAMES = [
  'OpenAI',
  'Azure',
  'Anthropic',
  'Claude',
  'Gemini',
  'Google',
  'Vertex',
  'Bedrock',
  'Midjourney',
  'GitHub',
  'OIDC',
  'OAuth',
  'OpenID',
  'Lark',
  'WeChat',
  'Telegram',
  'Turnstile',
  'Cloudflare',
  'STARTTLS',
  'SMTP',
  'JSON',
  'HTML',
  'Markdown',
  'HTTP',
  'HTTPS',
  // Not words of the interface but literals and names the admin types or presses:
  'true',
  'false',
  'Enter',
  // The e-mail header ("From address" in the Japanese SMTP help).
  'From',
  // The content-safety tool's name, the stored value of SafeToolName.
  'Keyword',
  // The unit models are billed in: the Chinese texts keep it as the term of art ("Token 数").
  'Token',
  'Tokens',
];

/** Multi-word names of products and of the credentials their consoles hand out. */
const PRODUCT_TERMS = [
  'OpenID Connect',
  'Uptime Kuma',
  'Turnstile Site Key',
  'Turnstile Secret Key',
  // OAuth / OpenID Connect names of fields, as the providers' consoles label them.
  'Client ID',
  'Client Secret',
  'App Secret',
  'ID Token',
  'Issuer',
  'Scopes',
];

/**
 * The English words (4+ Latin letters) left in `text` once the data shown on the screen is taken
 * out, each with the line it is on. Anything with a digit or inner punctuation is an id, a model
 * name, a URL or an amount; `{placeholder}` names are ids too.
 */
function englishWords(text: string, data: string[], allowed: ReadonlySet<string>): string[] {
  const values = [...data].filter(Boolean).sort((left, right) => right.length - left.length);
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    let rest = line.replace(/\{[^}]*\}/g, ' ');
    for (const value of values) rest = rest.split(value).join(' ');
    for (const run of rest.match(/[A-Za-z0-9_\-./:@#%+=?&$,]+/g) ?? []) {
      const word = run.replace(/^[-_./:@#%+=?&$,]+|[-_./:@#%+=?&$,]+$/g, '');
      if (/[^A-Za-z]/.test(word) || word.length < 4) continue;
      if (!allowed.has(word.toLowerCase())) found.add(`${word} — «${line.trim().slice(0, 120)}»`);
    }
  }
  return [...found].sort();
}

describe('the admin screens speak Chinese and Japanese', () => {
  let context: BrowserContext;
  let page: Page;
  /** Everything the screens show as data: names typed in by the journey, models, owners, keys. */
  let data: string[] = [];
  let allowed: ReadonlySet<string> = new Set();
  const found: Record<string, string[]> = {};

  beforeAll(async () => {
    context = await newContext();
    page = await context.newPage();
    // A new browser: acknowledge the notice once, so it does not cover the screens.
    await page.goto(`${server.origin}/login`);
    await page.getByTestId('notice-dialog').waitFor();
    await page.getByTestId('notice-close').click();
    await closed(page, 'notice-dialog');
    await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);

    const models = (await read<Array<{ model: string }>>('/api/prices')).map((price) => price.model);
    const owners = Object.values(await read<Record<string, { name: string }>>('/api/ownedby')).map((o) => o.name);
    const users = await paged<UserRow>('/api/user/?size=100');
    const groups = await paged<{ symbol: string; name: string }>('/api/user_group/?size=100');
    data = [
      ...PRODUCT_TERMS,
      SYSTEM_NAME,
      NOTICE,
      CHANNEL_NAME,
      BALANCE_REMARK,
      CODE_NAME,
      TOKEN_NAME,
      ...users.flatMap((row) => [row.username, row.display_name]),
      ...groups.flatMap((group) => [group.symbol, group.name]),
      ...models,
      ...owners,
    ];
    allowed = new Set([...PRODUCT_NAMES, ...Object.keys(optionDefinitions)].map((word) => word.toLowerCase()));
  });
  afterAll(async () => {
    await context?.close();
  });

  const screens: Array<{ id: string; path: string; ready: (page: Page) => Promise<void> }> = [
    {
      id: 'channel',
      path: '/panel/channel',
      ready: (p) => p.locator('[data-testid^=channel-row-]').first().waitFor(),
    },
    { id: 'user', path: '/panel/user', ready: (p) => p.locator('[data-testid^=user-row-]').first().waitFor() },
    {
      id: 'user_group',
      path: '/panel/user_group',
      ready: (p) => p.locator('[data-testid^=user-group-row-]').first().waitFor(),
    },
    {
      id: 'pricing',
      path: '/panel/pricing',
      ready: (p) => p.locator('[data-testid^=pricing-row-]').first().waitFor(),
    },
    {
      id: 'redemption',
      path: '/panel/redemption',
      ready: (p) => p.locator('[data-testid^=redemption-row-]').first().waitFor(),
    },
    {
      id: 'setting-operation',
      path: '/panel/setting?tab=operation',
      ready: (p) => p.getByTestId('setting-panel-operation').waitFor(),
    },
    {
      id: 'setting-system',
      path: '/panel/setting?tab=system',
      ready: (p) => p.getByTestId('setting-panel-system').waitFor(),
    },
    {
      id: 'setting-other',
      path: '/panel/setting?tab=other',
      ready: (p) => p.getByTestId('setting-panel-other').waitFor(),
    },
    {
      id: 'analytics',
      path: '/panel/analytics',
      ready: async (p) => {
        await p.getByTestId('analytics-trend-chart').waitFor();
        await p.getByTestId(`analytics-breakdown-item-${MODEL}`).waitFor();
      },
    },
    {
      id: 'analytics-users',
      path: '/panel/analytics?tab=users',
      ready: (p) => p.getByTestId(`analytics-top-user-${CAROL.username}`).waitFor(),
    },
    { id: 'log', path: '/panel/log', ready: (p) => p.locator('[data-testid^=log-row-]').first().waitFor() },
  ];

  it('finds the English of the English console (so the check below can fail)', async () => {
    await page.goto(`${server.origin}/panel/user`);
    await page.locator('[data-testid^=user-row-]').first().waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is wanted, not hidden nodes' text.
    const words = englishWords(await page.locator('main').innerText(), data, allowed);
    expect(words.length).toBeGreaterThan(5);
    // The data on the screen is not taken for interface text.
    expect(words.join(' ')).not.toContain(CAROL.display_name);
  });

  for (const language of ['zh_CN', 'ja_JP'] as const) {
    it(`shows no English words on the admin screens in ${language}`, async () => {
      await page.evaluate((code) => window.localStorage.setItem('appLanguage', code), language);
      for (const screen of screens) {
        await page.goto(`${server.origin}${screen.path}`);
        await screen.ready(page);
        await page.waitForTimeout(400);
        expect(await page.evaluate(() => document.documentElement.lang)).toMatch(/^(zh|ja)/);
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is wanted, not hidden nodes' text.
        const visible = await page.locator('main').innerText();
        found[`${language} ${screen.id}`] = englishWords(visible, data, allowed);
        if (language === 'zh_CN') await shot(page, `zh_CN-${screen.id}`);
      }
      const offending = Object.entries(found).filter(([key, words]) => key.startsWith(language) && words.length > 0);
      expect(Object.fromEntries(offending)).toEqual({});
    });
  }
});
