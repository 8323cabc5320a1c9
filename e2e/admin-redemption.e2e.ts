/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall, sessionCookie } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm, sortDirection } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-admin-redemption';
const CAROL = { username: 'carol', password: 'carol-password-1', display_name: 'Carol' };
const desktop = { width: 1280, height: 860 };
const narrow = { width: 390, height: 844 };
/** $2 at the default 500 000 quota per dollar. */
const CODE_QUOTA = 1_000_000;

let server: RunningServer;
let upstream: Server;
let browser: Browser;
let admin: AdminApi;
let carolId = 0;

interface CodeRow {
  id: number;
  key: string;
  name: string;
  quota: number;
  status: number;
  redeemed_user_id: number;
  redeemed_username: string;
}
interface LogRow {
  id: number;
  type: number;
  username: string;
  quota: number;
  request_id: string;
  user_id: number;
  created_at: number;
}

function call<T>(method: string, path: string, body?: unknown, auth: string = ROOT_TOKEN): Promise<T> {
  return apiCall<T>(
    server.origin,
    method,
    path,
    auth.startsWith('session=') ? { cookie: auth } : { token: auth },
    body,
  );
}

/** The codes of the batch, oldest first. */
async function codesNamed(name: string): Promise<CodeRow[]> {
  const page = await call<{ data: CodeRow[] }>('GET', `/api/redemption/?keyword=${encodeURIComponent(name)}&size=100`);
  return page.data.filter((code) => code.name === name).sort((a, b) => a.id - b.id);
}

const logIds = async (query: string) =>
  (await call<{ data: LogRow[] }>('GET', `/api/log/?size=100${query ? `&${query}` : ''}`)).data
    .map((log) => log.id)
    .sort((a, b) => a - b);

async function openPage(options: { theme?: string; viewport?: typeof desktop; context?: BrowserContext } = {}) {
  const page = options.context
    ? await options.context.newPage()
    : await browser.newPage({
        viewport: options.viewport ?? desktop,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
  await page.addInitScript((theme) => {
    if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', 'en_US');
    if (theme) window.localStorage.setItem('theme', theme);
  }, options.theme ?? '');
  return page;
}

const signIn = (page: Page, username: string, password: string) =>
  signInWithForm(page, server.origin, username, password);
const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
const state = (page: Page, id: number) => page.getByTestId(`redemption-status-${id}`).getAttribute('data-state');
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const rowIds = (page: Page, prefix: string) =>
  page
    .locator(`[data-testid^=${prefix}-row-]`)
    .evaluateAll((rows) =>
      rows.map((row) => Number(row.getAttribute('data-testid')?.split('-').pop())).sort((a, b) => a - b),
    );
const invalid = (page: Page, testId: string) => page.getByTestId(testId).getAttribute('aria-invalid');

/** Clicks a button that saves a file and answers the file's text. */
async function downloaded(page: Page, testId: string): Promise<{ name: string; content: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), content: readFileSync(path, 'utf8') };
}

/** `YYYY-MM-DDTHH:mm:ss` in local time: the value of a datetime-local input with seconds. */
function localInput(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** An OpenAI-style upstream on loopback with one fixed, non-streamed answer. */
async function startUpstream(): Promise<Server> {
  const mock = createServer((request, response) => {
    let body = '';
    request.on('data', (part: Buffer) => {
      body += part.toString('utf8');
    });
    request.on('end', () => {
      const { model } = JSON.parse(body || '{}') as { model?: string };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: 1_700_000_000,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  return mock;
}

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    CRITICAL_RATE_LIMIT: '1000',
  });
  admin = adminApi(server.origin, ROOT_TOKEN);
  await admin.createUser(CAROL);
  const users = await call<{ data: Array<{ id: number; username: string }> }>('GET', '/api/user/?keyword=carol');
  carolId = users.data.find((user) => user.username === CAROL.username)?.id ?? 0;
  // A manage log for root, so the admin log list holds more than one user's rows.
  await admin.addQuota(1, 5_000_000);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('redemption codes', () => {
  let page: Page;
  let codes: CodeRow[] = [];
  beforeAll(async () => {
    page = await openPage();
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await page.close();
  });

  it('creates a batch after refusing a bad count, and shows the new codes to copy and save', async () => {
    await page.goto(`${server.origin}/panel/redemption`);
    await page.getByTestId('redemption-empty').waitFor();
    await page.getByTestId('redemption-create').click();
    await page.getByTestId('redemption-form').waitFor();
    await page.getByTestId('redemption-form-name').fill('Launch gift');
    await page.getByTestId('redemption-form-quota').fill('2');
    await page.getByTestId('redemption-form-count').fill('0');
    await page.getByTestId('redemption-form-submit').click();
    expect(await invalid(page, 'redemption-form-count')).toBe('true');
    expect(
      await page.locator('[data-testid=redemption-form] .Mui-error.MuiFormHelperText-root').first().textContent(),
    ).toContain('100');
    expect(await codesNamed('Launch gift')).toEqual([]);
    await screenshot(page, 'redemption-create-dialog');

    await page.getByTestId('redemption-form-count').fill('3');
    expect(await invalid(page, 'redemption-form-count')).toBe('false');
    await page.getByTestId('redemption-form-submit').click();
    const shown = page.getByTestId('redemption-created-code');
    await page.getByTestId('redemption-created-dialog').waitFor();
    await expect.poll(() => shown.count()).toBe(3);

    codes = await codesNamed('Launch gift');
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatchObject({ quota: CODE_QUOTA, status: 1 });
    const keys = (await shown.allTextContents()).map((key) => key.trim());
    expect([...keys].sort()).toEqual(codes.map((code) => code.key).sort());
    await screenshot(page, 'redemption-created-dialog');

    await page.getByTestId('redemption-created-copy').click();
    await expect.poll(() => clipboard(page)).toBe(keys.join('\n'));

    const txt = await downloaded(page, 'redemption-created-export-txt');
    expect(txt.name).toMatch(/^redemption-codes-Launch-gift-\d{8}-\d{6}\.txt$/);
    expect(txt.content.trim().split('\n')).toEqual(keys);
    const csv = await downloaded(page, 'redemption-created-export-csv');
    expect(csv.name).toMatch(/\.csv$/);
    const lines = csv.content
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('code,name,quota');
    expect(lines.slice(1)).toEqual(keys.map((key) => `${key},Launch gift,${CODE_QUOTA}`));

    await page.getByTestId('redemption-created-close').click();
    await page.getByTestId('redemption-created-dialog').waitFor({ state: 'hidden' });
  });

  it('lists the codes with amount and status, copies one and disables one', async () => {
    await expect.poll(() => rowIds(page, 'redemption')).toEqual(codes.map((code) => code.id));
    const [first, , third] = codes;
    if (!first || !third) throw new Error('three codes expected');
    expect(await text(page, `redemption-quota-${first.id}`)).toBe('$2.00');
    expect(await text(page, `redemption-name-${first.id}`)).toBe('Launch gift');
    for (const code of codes) expect(await state(page, code.id)).toBe('unredeemed');

    await page.getByTestId(`redemption-copy-${first.id}`).click();
    await expect.poll(() => clipboard(page)).toBe(first.key);

    await page.getByTestId(`redemption-toggle-${third.id}`).locator('input').click();
    await expect.poll(() => state(page, third.id)).toBe('disabled');
    expect((await call<CodeRow>('GET', `/api/redemption/${third.id}`)).status).toBe(2);
    await page.mouse.move(0, 0);
    await expect.poll(() => page.locator('.notistack-MuiContent').count(), { timeout: 5000 }).toBe(0);
    await screenshot(page, 'redemption-list');
  });

  it('lets a user redeem an enabled code once, and refuses the disabled one', async () => {
    const [first, , third] = codes;
    if (!first || !third) throw new Error('three codes expected');
    const context = await browser.newContext({ viewport: desktop });
    try {
      const userPage = await openPage({ context });
      await signIn(userPage, CAROL.username, CAROL.password);
      const carolSession = await sessionCookie(server.origin, CAROL.username, CAROL.password);
      const quotaOf = async () =>
        (await call<{ quota: number }>('GET', '/api/user/self', undefined, carolSession)).quota;
      const before = await quotaOf();
      await userPage.goto(`${server.origin}/panel/topup`);
      await userPage.getByTestId('topup-balance').waitFor();

      await userPage.getByTestId('topup-code').fill(first.key);
      await userPage.getByTestId('topup-redeem').click();
      await expect.poll(quotaOf).toBe(before + CODE_QUOTA);
      const dollars = `$${((before + CODE_QUOTA) / 500_000).toFixed(2)}`;
      await expect.poll(() => text(userPage, 'topup-balance')).toBe(dollars);

      await userPage.getByTestId('topup-code').fill(third.key);
      await userPage.getByTestId('topup-redeem').click();
      const refusal = userPage.locator('.notistack-MuiContent-error').first();
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('disabled');
      expect(await quotaOf()).toBe(before + CODE_QUOTA);
      expect(await text(userPage, 'topup-balance')).toBe(dollars);
    } finally {
      await context.close();
    }
  });

  it('shows the redeemed and disabled codes, filters by status, edits and deletes', async () => {
    const [first, second, third] = codes;
    if (!first || !second || !third) throw new Error('three codes expected');
    await page.getByTestId('redemption-refresh').click();
    await expect.poll(() => state(page, first.id)).toBe('redeemed');
    expect(await text(page, `redemption-redeemer-${first.id}`)).toContain(CAROL.username);
    expect(await call<CodeRow>('GET', `/api/redemption/${first.id}`)).toMatchObject({
      status: 3,
      redeemed_user_id: carolId,
      redeemed_username: CAROL.username,
    });
    expect(await state(page, third.id)).toBe('disabled');
    expect(await state(page, second.id)).toBe('unredeemed');
    expect(await page.getByTestId(`redemption-toggle-${first.id}`).locator('input').isDisabled()).toBe(true);

    await page.locator('[data-testid=redemption-status-filter] [role=combobox]').click();
    await page.getByTestId('redemption-status-option-3').click();
    await page.waitForURL(/status=3/);
    await expect.poll(() => rowIds(page, 'redemption')).toEqual([first.id]);
    await page.reload();
    await expect.poll(() => rowIds(page, 'redemption')).toEqual([first.id]);

    await page.goto(`${server.origin}/panel/redemption?order=-id`);
    await page.getByTestId('redemption-search').fill(String(second.id));
    await page.waitForURL(new RegExp(`keyword=${second.id}(&|$)`));
    await expect.poll(() => rowIds(page, 'redemption')).toEqual([second.id]);
    await page.getByTestId('redemption-search').fill('');
    await page.waitForURL((url) => !url.search.includes('keyword'));

    await page.getByTestId(`redemption-edit-${second.id}`).click();
    expect(await page.getByTestId('redemption-form-quota').inputValue()).toBe('2');
    await page.getByTestId('redemption-form-name').fill('x'.repeat(21));
    await page.getByTestId('redemption-form-submit').click();
    expect(await invalid(page, 'redemption-form-name')).toBe('true');
    await page.getByTestId('redemption-form-name').fill('Bigger gift');
    await page.getByTestId('redemption-form-quota').fill('5');
    await page.getByTestId('redemption-form-submit').click();
    await page.getByTestId('redemption-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => text(page, `redemption-quota-${second.id}`)).toBe('$5.00');
    expect(await call<CodeRow>('GET', `/api/redemption/${second.id}`)).toMatchObject({
      name: 'Bigger gift',
      quota: 2_500_000,
    });

    await page.getByTestId(`redemption-edit-${first.id}`).click();
    expect(await page.getByTestId('redemption-form-quota').isDisabled()).toBe(true);
    await page.getByTestId('redemption-form-cancel').click();
    await page.getByTestId('redemption-dialog').waitFor({ state: 'hidden' });

    await page.getByTestId(`redemption-delete-${third.id}`).click();
    await page.getByTestId('redemption-delete-dialog').waitFor();
    expect((await codesNamed('Launch gift')).map((code) => code.id)).toContain(third.id);
    await page.getByTestId('redemption-delete-confirm').click();
    await expect.poll(() => rowIds(page, 'redemption')).toEqual([first.id, second.id]);
    await expect(call('GET', `/api/redemption/${third.id}`)).rejects.toThrow(/404/);
  });

  it('reads well on a phone and in dark mode', async () => {
    for (const [name, options] of [
      ['redemption-phone', { viewport: narrow }],
      ['redemption-dark', { theme: 'dark' }],
    ] as const) {
      const shot = await openPage(options);
      await signIn(shot, 'root', ROOT_PASSWORD);
      await shot.goto(`${server.origin}/panel/redemption`);
      await shot.locator('[data-testid^=redemption-row-]').first().waitFor();
      expect(await shot.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(shot, name);
      await shot.close();
    }
  });
});

describe('admin logs', () => {
  let page: Page;
  let channelId = 0;
  let consume: LogRow[] = [];

  beforeAll(async () => {
    const { port } = upstream.address() as AddressInfo;
    await call('POST', '/api/channel/', {
      name: 'mock-openai',
      type: 1,
      key: 'sk-upstream',
      base_url: `http://127.0.0.1:${port}`,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    const channels = await call<{ data: Array<{ id: number; name: string }> }>('GET', '/api/channel/?keyword=mock');
    channelId = channels.data.find((channel) => channel.name === 'mock-openai')?.id ?? 0;
    const carolSession = await sessionCookie(server.origin, CAROL.username, CAROL.password);
    const token = await call<{ key: string }>(
      'POST',
      '/api/token/',
      { name: 'carol-app', remain_quota: 0, unlimited_quota: true, expired_time: -1 },
      carolSession,
    );
    for (let request = 0; request < 2; request++) {
      const response = await fetch(`${server.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      await response.text();
    }
    // Consume logs are written in batches (expect.poll is not available in a hook).
    for (let attempt = 0; attempt < 100 && consume.length < 2; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      consume = (await call<{ data: LogRow[] }>('GET', '/api/log/?log_type=2&size=100')).data;
    }
    expect(consume).toHaveLength(2);
    page = await openPage();
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await page?.close();
  });

  /** Fills one filter, searches, and checks the rows are what the API gives for the same query. */
  async function expectFilter(testId: string, value: string, query: string) {
    await page.goto(`${server.origin}/panel/log`);
    await page.getByTestId(testId).fill(value);
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL((url) => url.search.includes(query.split('=')[0] ?? ''));
    const expected = await logIds(query);
    expect(expected.length, query).toBeGreaterThan(0);
    await expect.poll(() => rowIds(page, 'log'), { message: query }).toEqual(expected);
    return expected;
  }

  it('filters everyone’s logs by username, type and every other admin filter', async () => {
    const all = await logIds('');
    const users = new Set(
      (await call<{ data: LogRow[] }>('GET', '/api/log/?size=100')).data.map((log) => log.username),
    );
    expect(users).toEqual(new Set(['root', CAROL.username]));

    const carols = await expectFilter('log-filter-username', CAROL.username, `username=${CAROL.username}`);
    expect(carols.length).toBeLessThan(all.length);
    expect(new Set(await page.locator('[data-testid^=log-user-]').allTextContents())).toEqual(
      new Set([CAROL.username]),
    );

    // The redeem line: a top-up of carol's, for the code's amount.
    await page.locator('[data-testid=log-filter-type] [role=combobox]').click();
    await page.getByTestId('log-filter-type-1').click();
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL(/log_type=1/);
    const topups = await logIds(`username=${CAROL.username}&log_type=1`);
    expect(topups).toHaveLength(1);
    await expect.poll(() => rowIds(page, 'log')).toEqual(topups);
    const topup = topups[0] ?? 0;
    expect(await page.getByTestId(`log-type-${topup}`).getAttribute('data-type')).toBe('1');
    const exact = (await page.getByTestId(`log-quota-${topup}`).getAttribute('title')) ?? '';
    expect(Number(exact.replace(/\D/g, ''))).toBe(CODE_QUOTA);
    expect(await text(page, `log-detail-${topup}`)).not.toBe('');
    await screenshot(page, 'admin-logs-filtered');

    const consumeIds = consume.map((log) => log.id).sort((a, b) => a - b);
    expect(await expectFilter('log-filter-model', 'gpt-4o-mini', 'model_name=gpt-4o-mini')).toEqual(consumeIds);
    expect(await expectFilter('log-filter-token', 'carol-app', 'token_name=carol-app')).toEqual(consumeIds);
    expect(await expectFilter('log-filter-channel', String(channelId), `channel_id=${channelId}`)).toEqual(consumeIds);
    const requestId = consume[0]?.request_id ?? '';
    expect(await expectFilter('log-filter-request', requestId, `request_id=${requestId}`)).toEqual([consume[0]?.id]);
    await expectFilter('log-filter-ip', '127.0.0.1', 'source_ip=127.0.0.1');

    const now = Math.floor(Date.now() / 1000);
    await page.goto(`${server.origin}/panel/log`);
    await page.getByTestId('log-filter-start').fill(localInput(now + 3600));
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL(/start_timestamp=/);
    await page.getByTestId('log-empty').waitFor();
    await page.getByTestId('log-filter-start').fill(localInput(now - 3600));
    await page.getByTestId('log-filter-end').fill(localInput(now + 60));
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL(/end_timestamp=/);
    await expect.poll(() => rowIds(page, 'log')).toEqual(all);
    await page.getByTestId('log-filter-reset').click();
    await page.waitForURL((url) => url.search === '');
  });

  it('sorts by user and by client IP', async () => {
    await page.goto(`${server.origin}/panel/log`);
    await page.locator('[data-testid^=log-row-]').first().waitFor();
    const firstUser = () => page.locator('[data-testid^=log-user-]').first().textContent();
    await page.getByTestId('log-sort-user_id').click();
    await page.waitForURL(/order=-user_id/);
    await expect.poll(() => sortDirection(page, 'log-sort-user_id')).toBe('descending');
    await expect.poll(firstUser).toBe(CAROL.username);
    await page.getByTestId('log-sort-user_id').click();
    await page.waitForURL(/order=user_id/);
    await expect.poll(() => sortDirection(page, 'log-sort-user_id')).toBe('ascending');
    await expect.poll(firstUser).toBe('root');
    await page.mouse.move(0, 0);
    await screenshot(page, 'admin-logs');
    await page.getByTestId('log-sort-source_ip').click();
    await page.waitForURL(/order=-source_ip/);
    await expect.poll(() => rowIds(page, 'log')).toEqual(await logIds(''));
  });

  it('cleans up consume logs only after confirmation', async () => {
    const topupsBefore = await logIds('log_type=1');
    // The preset's "now" is in whole seconds: it must have passed the second the newest consume log
    // was written in, or the clean-up would rightly keep that log.
    const newest = Math.max(...consume.map((log) => log.created_at));
    await expect.poll(() => Math.floor(Date.now() / 1000), { timeout: 5000 }).toBeGreaterThan(newest);
    await page.goto(`${server.origin}/panel/log`);
    await page.getByTestId('log-cleanup').click();
    await page.getByTestId('log-cleanup-dialog').waitFor();
    await page.getByTestId('log-cleanup-preset-now').click();
    await screenshot(page, 'admin-logs-cleanup');
    // Opening the dialog and choosing a time deletes nothing yet.
    expect(await logIds('log_type=2')).toHaveLength(2);
    await page.getByTestId('log-cleanup-confirm').click();
    const result = page.getByTestId('log-cleanup-result');
    await result.waitFor();
    expect(Number(await result.getAttribute('data-count'))).toBe(2);
    await page.getByTestId('log-cleanup-close').click();
    expect(await logIds('log_type=2')).toEqual([]);
    expect(await logIds('log_type=1')).toEqual(topupsBefore);
    await page.goto(`${server.origin}/panel/log?log_type=2`);
    await page.getByTestId('log-empty').waitFor();
  });
});
