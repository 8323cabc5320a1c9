/// <reference lib="dom" />
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall, sessionCookie } from './support/api.js';
import {
  clipboard,
  exactQuota,
  expandSection,
  exportFrom,
  launchBrowser,
  screenshot,
  signInWithForm,
  sortDirection,
  text,
} from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-tokens-logs';
const BOB = { username: 'bob', password: 'bob-password-1', display_name: 'Bob' };
const desktop = { width: 1280, height: 860 };
const phone = { width: 400, height: 860 };
/** What the mock upstream reports for every answer. */
const USAGE = {
  prompt_tokens: 120,
  completion_tokens: 48,
  total_tokens: 168,
  prompt_tokens_details: { cached_tokens: 64 },
  completion_tokens_details: { reasoning_tokens: 16 },
};

let server: RunningServer;
let upstream: Server;
let browser: Browser;
let admin: AdminApi;

interface TokenRow {
  id: number;
  name: string;
  key: string;
  status: number;
}
interface LogRow {
  id: number;
  type: number;
  model_name: string;
  quota: number;
  username: string;
}

/** A management API call as root (access token) or as a signed-in user (session cookie). */
function call<T>(method: string, path: string, body?: unknown, auth: string = ROOT_TOKEN): Promise<T> {
  return apiCall<T>(
    server.origin,
    method,
    path,
    auth.startsWith('session=') ? { cookie: auth } : { token: auth },
    body,
  );
}

const sessionOf = (username: string, password: string) => sessionCookie(server.origin, username, password);

const tokensNamed = async (keyword: string, auth = ROOT_TOKEN) =>
  (
    await call<{ data: TokenRow[] }>(
      'GET',
      `/api/token/?keyword=${encodeURIComponent(keyword)}&size=100`,
      undefined,
      auth,
    )
  ).data;

async function createToken(name: string, extra: Record<string, unknown> = {}, auth = ROOT_TOKEN): Promise<TokenRow> {
  return call<TokenRow>('POST', '/api/token/', { name, remain_quota: 500_000, expired_time: -1, ...extra }, auth);
}

/** An OpenAI-style upstream on loopback: one fixed answer, streamed when asked. */
async function startUpstream(): Promise<Server> {
  const mock = createServer((request, response) => {
    let text = '';
    request.on('data', (part: Buffer) => {
      text += part.toString('utf8');
    });
    request.on('end', () => {
      const body = JSON.parse(text || '{}') as { model?: string; stream?: boolean };
      const base = { id: 'chatcmpl-e2e', created: 1_700_000_000, model: body.model };
      if (!body.stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
            usage: USAGE,
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (data: Record<string, unknown>) =>
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...data })}\n\n`;
      response.write(chunk({ choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] }));
      setTimeout(() => {
        response.write(chunk({ choices: [{ index: 0, delta: { content: 'lo!' }, finish_reason: 'stop' }] }));
        response.end(`${chunk({ choices: [], usage: USAGE })}data: [DONE]\n\n`);
      }, 120);
    });
  });
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  return mock;
}

async function relay(key: string, model: string, stream = false): Promise<void> {
  const response = await fetch(`${server.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Say hello' }] }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  await response.text();
}

/** Consume logs are written in batches: wait until the API lists `count` of them. */
async function consumeLogs(path: string, auth: string, count: number): Promise<LogRow[]> {
  let rows: LogRow[] = [];
  await expect
    .poll(
      async () => {
        rows = (await call<{ data: LogRow[] }>('GET', `${path}?log_type=2&size=100`, undefined, auth)).data;
        return rows.length;
      },
      { timeout: 10_000 },
    )
    .toBe(count);
  return rows;
}

async function openPage(options: { language?: string; theme?: string; viewport?: typeof desktop } = {}) {
  const page = await browser.newPage({
    viewport: options.viewport ?? desktop,
    permissions: ['clipboard-read', 'clipboard-write'],
    acceptDownloads: true,
  });
  await page.addInitScript(
    ([language, theme]) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', language ?? 'en_US');
      if (theme) window.localStorage.setItem('theme', theme);
    },
    [options.language ?? 'en_US', options.theme ?? ''],
  );
  return page;
}

const signIn = (page: Page, username: string, password: string) =>
  signInWithForm(page, server.origin, username, password);

const rowIds = (page: Page, prefix: string) =>
  page
    .locator(`[data-testid^=${prefix}-row-]`)
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-testid')?.split('-').pop())));

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    CRITICAL_RATE_LIMIT: '1000',
  });
  admin = adminApi(server.origin, ROOT_TOKEN);
  await admin.setOption('ServerAddress', server.origin);
  await admin.createUser(BOB);
  const users = await call<{ data: Array<{ id: number; username: string }> }>('GET', '/api/user/?keyword=bob');
  const bob = users.data.find((user) => user.username === BOB.username);
  await admin.addQuota(bob?.id ?? 0, 50_000_000);
  await admin.addQuota(1, 50_000_000);
  const { port } = upstream.address() as AddressInfo;
  await call('POST', '/api/channel/', {
    name: 'mock-openai',
    type: 1,
    key: 'sk-upstream',
    base_url: `http://127.0.0.1:${port}`,
    models: 'gpt-4o-mini,gpt-4o',
    group: 'default',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('tokens', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage();
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await page.close();
  });

  it('creates a token with a quota and an expiry after fixing the name', async () => {
    await page.goto(`${server.origin}/panel/token`);
    await page.getByTestId('token-create').click();
    const name = page.getByTestId('token-form-name');
    await page.getByTestId('token-form-submit').click();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.fill('x'.repeat(31));
    await page.getByTestId('token-form-submit').click();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.locator('[data-testid=token-form] .Mui-error.MuiFormHelperText-root').first().textContent(),
    ).toContain('30');
    await screenshot(page, 'tokens-form-error');
    await name.fill('ci-key');
    // In US dollars, as the balance dialog takes them (the site shows currency): 250,000 quota.
    await page.getByTestId('token-form-quota').fill('0.50');
    await page.getByTestId('token-form-preset-week').click();
    await page.getByTestId('token-form-submit').click();

    const created = page.getByTestId('token-created-key');
    await created.waitFor();
    const [token] = await tokensNamed('ci-key');
    expect(token).toBeDefined();
    // The API sends the key without `sk-` (as the reference does); the console shows and copies it with the prefix.
    const full = await call<TokenRow>('GET', `/api/token/${token?.id}`);
    expect(full.key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(await created.textContent()).toBe(`sk-${full.key}`);
    await page.getByTestId('token-created-copy').click();
    await expect.poll(() => clipboard(page)).toBe(`sk-${full.key}`);
    await page.getByTestId('token-created-close').click();

    const id = token?.id ?? 0;
    await page.getByTestId(`token-row-${id}`).waitFor();
    expect(await text(page, `token-name-${id}`)).toBe('ci-key');
    expect(await text(page, `token-remain-${id}`)).toBe('$0.50');
    expect(await text(page, `token-expiry-${id}`)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await page.getByTestId(`token-status-${id}`).getAttribute('data-state')).toBe('enabled');
  });

  it('edits the name, the quota and the limits', async () => {
    const [token] = await tokensNamed('ci-key');
    const id = token?.id ?? 0;
    await page.getByTestId(`token-edit-${id}`).click();
    const name = page.getByTestId('token-form-name');
    expect(await name.inputValue()).toBe('ci-key');
    await name.fill('ci-key-renamed');
    await page.getByTestId('token-form-unlimited').check();
    await expandSection(page, 'token-form-advanced');
    await page.getByTestId('token-form-ip-limit').check();
    await page.getByTestId('token-form-ips').fill('10.0.0.0/8\nnot-an-ip');
    await page.getByTestId('token-form-submit').click();
    expect(await page.getByTestId('token-form-ips').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('token-form-ips').fill('10.0.0.0/8\n127.0.0.1');
    await page.getByTestId('token-form-rpm').fill('120');
    await page.getByTestId('token-form-submit').click();
    await page.getByTestId('token-dialog').waitFor({ state: 'hidden' });

    await expect.poll(() => text(page, `token-name-${id}`)).toBe('ci-key-renamed');
    expect(await text(page, `token-remain-${id}`)).toBe('Unlimited');
    const saved = await call<{ setting: { limits: { rpm: number; limits_ip_setting: { whitelist: string[] } } } }>(
      'GET',
      `/api/token/${id}`,
    );
    expect(saved.setting.limits.rpm).toBe(120);
    expect(saved.setting.limits.limits_ip_setting.whitelist).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('disables and enables a token, and shows the refusal for an expired one', async () => {
    const [token] = await tokensNamed('ci-key');
    const id = token?.id ?? 0;
    const toggle = page.getByTestId(`token-toggle-${id}`);
    await toggle.locator('input').click();
    await expect.poll(() => page.getByTestId(`token-status-${id}`).getAttribute('data-state')).toBe('disabled');
    expect((await call<TokenRow>('GET', `/api/token/${id}`)).status).toBe(2);
    await toggle.locator('input').click();
    await expect.poll(() => page.getByTestId(`token-status-${id}`).getAttribute('data-state')).toBe('enabled');

    const shortLived = await createToken('short-lived', { expired_time: Math.floor(Date.now() / 1000) + 2 });
    await call('PUT', '/api/token/?status_only=1', { id: shortLived.id, status: 2 });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await page.reload();
    await page.getByTestId(`token-toggle-${shortLived.id}`).locator('input').click();
    const refusal = page.locator('.notistack-MuiContent-error').first();
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/expired/);
    await expect
      .poll(() => page.getByTestId(`token-status-${shortLived.id}`).getAttribute('data-state'))
      .toBe('disabled');
  });

  it('copies the full key and opens chat links with it', async () => {
    await admin.setOption(
      'ChatLinks',
      JSON.stringify([
        { name: 'Low', url: 'https://low.example/?k={key}&s={server}', show: true, sort: 1 },
        { name: 'Hidden', url: 'https://hidden.example/?k={key}', show: false, sort: 9 },
        { name: 'High', url: 'https://high.example/#{key}@{server}', show: true, sort: 5 },
      ]),
    );
    await page.goto(`${server.origin}/panel/token`);
    const [token] = await tokensNamed('ci-key');
    const id = token?.id ?? 0;
    const full = `sk-${(await call<TokenRow>('GET', `/api/token/${id}`)).key}`;
    expect(await text(page, `token-masked-key-${id}`)).toBe(`${full.slice(0, 7)}…${full.slice(-4)}`);

    await page.getByTestId(`token-copy-${id}`).click();
    await expect.poll(() => clipboard(page)).toBe(full);

    await page.getByTestId(`token-chat-${id}`).click();
    const links = page.locator(`[data-testid=token-chat-menu-${id}] a[data-testid^=token-chat-link-]`);
    await expect.poll(() => links.first().getAttribute('href')).toBe(`https://high.example/#${full}@${server.origin}`);
    expect(await links.allTextContents()).toEqual(['High', 'Low']);
    expect(await links.nth(1).getAttribute('target')).toBe('_blank');
    await page.keyboard.press('Escape');
  });

  it('keeps search, order and page in the URL', async () => {
    for (let index = 1; index <= 12; index++) await createToken(`bulk-${String(index).padStart(2, '0')}`);
    await page.goto(`${server.origin}/panel/token?keyword=bulk`);
    await expect.poll(() => rowIds(page, 'token').then((ids) => ids.length)).toBe(10);
    expect(await text(page, 'token-pagination')).toContain('1–10 of 12');
    const firstName = async () => page.locator('[data-testid^=token-name-]').first().textContent();

    await page.getByTestId('token-sort-name').click();
    await page.waitForURL(/order=-name/);
    // bulk-12 is first in the default (newest first) order too: the header shows the sort took.
    await expect.poll(() => sortDirection(page, 'token-sort-name')).toBe('descending');
    await expect.poll(firstName).toBe('bulk-12');
    await page.getByTestId('token-sort-name').click();
    await page.waitForURL(/order=name/);
    await expect.poll(() => sortDirection(page, 'token-sort-name')).toBe('ascending');
    await expect.poll(firstName).toBe('bulk-01');

    await page.getByTestId('token-pagination').getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => rowIds(page, 'token').then((ids) => ids.length)).toBe(2);
    await page.reload();
    await expect.poll(firstName).toBe('bulk-11');
    expect(page.url()).toContain('order=name');

    await page.getByTestId('token-search').fill('bulk-1');
    await page.waitForURL(/keyword=bulk-1(&|$)/);
    await expect.poll(() => rowIds(page, 'token').then((ids) => ids.length)).toBe(3);

    await page.goBack();
    await page.waitForURL(/keyword=bulk&.*page=2/);
    await expect.poll(() => page.getByTestId('token-search').inputValue()).toBe('bulk');
    await page.getByTestId('token-search').fill('zzz-none');
    await page.getByTestId('token-empty').waitFor();
  });

  it('deletes a token after confirmation', async () => {
    const [token] = await tokensNamed('bulk-12');
    const id = token?.id ?? 0;
    await page.goto(`${server.origin}/panel/token?keyword=bulk-12`);
    await page.getByTestId(`token-delete-${id}`).click();
    await page.getByTestId('token-delete-dialog').waitFor();
    await page.getByTestId('token-delete-confirm').click();
    await page.getByTestId('token-empty').waitFor();
    expect(await tokensNamed('bulk-12')).toEqual([]);
  });
});

describe('logs', () => {
  let bobSession: string;
  let bobKey: string;

  beforeAll(async () => {
    bobSession = await sessionOf(BOB.username, BOB.password);
    bobKey = (await createToken('bob-app', { unlimited_quota: true }, bobSession)).key;
    await relay(bobKey, 'gpt-4o-mini');
    await relay(bobKey, 'gpt-4o-mini');
    await relay(bobKey, 'gpt-4o', true);
    const rootKey = (await createToken('root-app', { unlimited_quota: true })).key;
    await relay(rootKey, 'gpt-4o-mini');
  });

  it('show a user their own requests with model, tokens, cost and the total', async () => {
    const logs = await consumeLogs('/api/log/self', bobSession, 3);
    const page = await openPage();
    await signIn(page, BOB.username, BOB.password);
    await page.goto(`${server.origin}/panel/log`);
    for (const log of logs) {
      await page.getByTestId(`log-row-${log.id}`).waitFor();
      expect(await text(page, `log-model-${log.id}`)).toBe(log.model_name);
      expect(await text(page, `log-token-${log.id}`)).toBe('bob-app');
      expect(await text(page, `log-input-${log.id}`)).toBe('120');
      expect(await text(page, `log-output-${log.id}`)).toBe('48');
      expect(await exactQuota(page, `log-quota-${log.id}`)).toBe(log.quota);
      expect(log.quota).toBeGreaterThan(0);
    }
    const total = logs.reduce((sum, log) => sum + log.quota, 0);
    await expect.poll(() => exactQuota(page, 'log-stat-quota')).toBe(total);
    expect(await page.locator('[data-testid^=log-user-]').count()).toBe(0);
    expect(await page.getByTestId('log-cleanup').count()).toBe(0);

    const streamed = logs.find((log) => log.model_name === 'gpt-4o');
    expect(await page.getByTestId(`log-stream-${streamed?.id}`).count()).toBe(1);
    expect(await text(page, `log-speed-${streamed?.id}`)).toMatch(/t\/s$/);
    await page.getByTestId(`log-input-${streamed?.id}`).click();
    const breakdown = page.getByTestId('log-breakdown');
    await breakdown.waitFor();
    await page.waitForTimeout(400);
    expect(await text(page, 'log-breakdown-cached_tokens')).toContain('64');
    expect(await text(page, 'log-breakdown-reasoning_tokens')).toContain('16');
    await screenshot(page, 'logs-breakdown');
    await page.keyboard.press('Escape');

    await page.getByTestId('log-filter-model').fill('gpt-4o');
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL(/model_name=gpt-4o(&|$)/);
    await expect.poll(() => rowIds(page, 'log')).toEqual([streamed?.id]);
    await expect.poll(() => exactQuota(page, 'log-stat-quota')).toBe(streamed?.quota);
    // The export has exactly the filtered rows: a header, then the one gpt-4o request.
    const exported = await exportFrom(page, 'log-export', 'csv');
    expect(exported.name).toMatch(/^logs-\d{8}-\d{6}\.csv$/);
    const lines = exported.content.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^id,created_at,type,user_id,username,/);
    expect(
      lines.slice(1).map((line) =>
        line
          .split(',')
          .slice(0, 1)
          .concat(line.split(',')[7] ?? ''),
      ),
    ).toEqual([[String(streamed?.id), 'gpt-4o']]);
    await page.reload();
    expect(await page.getByTestId('log-filter-model').inputValue()).toBe('gpt-4o');
    await page.close();
  });

  it('let an administrator filter everyone’s logs by username', async () => {
    await consumeLogs('/api/log/', ROOT_TOKEN, 4);
    const page = await openPage();
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto(`${server.origin}/panel/log?log_type=2`);
    await expect.poll(() => rowIds(page, 'log').then((ids) => ids.length)).toBe(4);
    await page.getByTestId('log-filter-username').fill(BOB.username);
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL(/username=bob/);
    await expect.poll(() => rowIds(page, 'log').then((ids) => ids.length)).toBe(3);
    const users = await page.locator('[data-testid^=log-user-]').allTextContents();
    expect(new Set(users)).toEqual(new Set([BOB.username]));
    expect(page.url()).toContain('log_type=2');
    // The export follows the filters on screen: bob's three consume logs, in the list's order.
    const exported = await exportFrom(page, 'log-export', 'jsonl');
    expect(exported.name).toMatch(/^logs-\d{8}-\d{6}\.jsonl$/);
    const rows = exported.content
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LogRow);
    expect(rows.map((row) => row.id)).toEqual(await rowIds(page, 'log'));
    expect(rows.every((row) => row.username === BOB.username && row.type === 2)).toBe(true);
    await page.close();
  });

  it('take screenshots in light, dark, Chinese and on a phone', async () => {
    const shots: Array<[string, Parameters<typeof openPage>[0]]> = [
      ['light', {}],
      ['dark', { theme: 'dark' }],
      ['zh_CN', { language: 'zh_CN' }],
      ['phone', { viewport: phone }],
    ];
    for (const [name, options] of shots) {
      const page = await openPage(options);
      await signIn(page, 'root', ROOT_PASSWORD);
      await page.goto(`${server.origin}/panel/token`);
      await page.locator('[data-testid^=token-row-]').first().waitFor();
      await page.waitForTimeout(300);
      await screenshot(page, `tokens-${name}`);
      await page.goto(`${server.origin}/panel/log`);
      await page.locator('[data-testid^=log-row-]').first().waitFor();
      await page.waitForTimeout(300);
      await screenshot(page, `logs-${name}`);
      if (name === 'phone') {
        await page.getByTestId('log-filter-toggle').click();
        await page.getByTestId('log-filter-username').waitFor();
        await page.waitForTimeout(500);
        await screenshot(page, 'logs-phone-filters');
      }
      await page.close();
    }
  });

  it('let an administrator clean up consume logs and say how many went', async () => {
    const before = await consumeLogs('/api/log/', ROOT_TOKEN, 4);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const page = await openPage();
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto(`${server.origin}/panel/log`);
    await page.getByTestId('log-cleanup').click();
    await page.getByTestId('log-cleanup-dialog').waitFor();
    await page.getByTestId('log-cleanup-preset-now').click();
    await page.getByTestId('log-cleanup-confirm').click();
    const result = page.getByTestId('log-cleanup-result');
    await result.waitFor();
    expect(Number(await result.getAttribute('data-count'))).toBe(before.length);
    await screenshot(page, 'logs-cleanup');
    await page.getByTestId('log-cleanup-close').click();
    await page.goto(`${server.origin}/panel/log?log_type=2`);
    await page.getByTestId('log-empty').waitFor();
    expect(await consumeLogs('/api/log/', ROOT_TOKEN, 0)).toEqual([]);
    await page.close();
  });
});
