/// <reference lib="dom" />
/**
 * The site the account-screen browser tests share: users Carol, Dave (group vip) and Erin, a
 * channel to a mock upstream (also a WeChat server) and a mail catcher. Each test file calls
 * `useAccountSite()` once; the bindings below are live, set by its `beforeAll`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type ApiAuth, apiCall, sessionCookie } from './api.js';
import { launchBrowser, screenshot, signInWithForm } from './browser.js';
import { type MailCatcher, smtpOptions, startMailCatcher } from './mail.js';
import { pageOpener } from './pages.js';
import { type RunningServer, startServer } from './server.js';

export { phone } from './pages.js';

export const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-0123456789';
export const WECHAT_CODE = '135790';
export const WECHAT_OPEN_ID = 'wx-open-id-erin';
const QUOTA_PER_DOLLAR = 500_000;

/** What the mock upstream reports per model, so the dashboard's figures are known in advance. */
export const USAGE = {
  'gpt-4o': { prompt: 20_000, completion: 5_000, calls: 2 },
  'gpt-4o-mini': { prompt: 40_000, completion: 10_000, calls: 3 },
} as const;
type MockModel = keyof typeof USAGE;

/** A prompt the mock answers with a small usage, so a few calls cost well under a cent. */
export const TINY_PROMPT = 'tiny usage please';
const TINY_USAGE = { prompt: 300, completion: 100 };

export const USERS = {
  carol: { username: 'carol', password: 'carol-password-1', display_name: 'Carol' },
  dave: { username: 'dave', password: 'dave-password-1', display_name: 'Dave' },
  erin: { username: 'erin', password: 'erin-password-1', display_name: 'Erin' },
} as const;

// ---------------------------------------------------------------------------------------------
// A local stand-in: an OpenAI-style upstream (also a WeChat server).

interface MockUpstream {
  url: string;
  close(): Promise<void>;
}

async function startMockUpstream(): Promise<MockUpstream> {
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/api/wechat/user') {
        const known = url.searchParams.get('code') === WECHAT_CODE;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(known ? { success: true, data: WECHAT_OPEN_ID } : { success: false, message: 'bad code' }),
        );
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as {
        model?: string;
        messages?: Array<{ content?: unknown }>;
      };
      const model = (body.model ?? 'gpt-4o') as MockModel;
      const tiny = body.messages?.[0]?.content === TINY_PROMPT;
      const usage = tiny ? TINY_USAGE : (USAGE[model] ?? USAGE['gpt-4o']);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [
            { index: 0, message: { role: 'assistant', content: 'Hello from the mock.' }, finish_reason: 'stop' },
          ],
          usage: {
            prompt_tokens: usage.prompt,
            completion_tokens: usage.completion,
            total_tokens: usage.prompt + usage.completion,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The management API, as root (access token) or as a user (session cookie).

export let server: RunningServer;
let browser: Browser;
let upstream: MockUpstream;
export let mail: MailCatcher;
const userIds: Record<string, number> = {};

export type Auth = ApiAuth;

export const call = <T>(method: string, path: string, auth: Auth, body?: unknown) =>
  apiCall<T>(server.origin, method, path, auth, body);

export const root: Auth = { token: ROOT_TOKEN };

export async function apiSignIn(username: string, password: string): Promise<Auth> {
  return { cookie: await sessionCookie(server.origin, username, password) };
}

interface Self {
  id: number;
  quota: number;
  used_quota: number;
  display_name: string;
  email: string;
  wechat_id: string;
  username: string;
}

export const self = (auth: Auth) => call<Self>('GET', '/api/user/self', auth);
export const dollars = (quota: number) => `$${(quota / QUOTA_PER_DOLLAR).toFixed(2)}`;

async function createUser(user: (typeof USERS)[keyof typeof USERS]): Promise<number> {
  await call('POST', '/api/user/', root, user);
  const list = await call<{ data: Array<{ id: number; username: string }> }>(
    'GET',
    `/api/user/?keyword=${user.username}`,
    root,
  );
  const id = list.data.find((entry) => entry.username === user.username)?.id;
  if (!id) throw new Error(`user ${user.username} not found`);
  return id;
}

async function setGroupRate(symbol: string, apiRate: number): Promise<void> {
  const groups = await call<{ data: Array<Record<string, unknown> & { symbol: string }> }>(
    'GET',
    '/api/user_group/?size=100',
    root,
  );
  const group = groups.data.find((entry) => entry.symbol === symbol);
  if (!group) throw new Error(`group ${symbol} not found`);
  await call('PUT', '/api/user_group/', root, { ...group, api_rate: apiRate });
}

/** Real relay traffic through the mock upstream, then waits for the statistics roll-up. */
export async function generateUsage(auth: Auth): Promise<void> {
  const token = await call<{ key: string }>('POST', '/api/token/', auth, {
    name: 'e2e usage',
    remain_quota: 0,
    unlimited_quota: true,
  });
  const key = token.key.startsWith('sk-') ? token.key : `sk-${token.key}`;
  for (const [model, usage] of Object.entries(USAGE)) {
    for (let attempt = 0; attempt < usage.calls; attempt++) {
      const response = await fetch(`${server.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
      });
      expect(response.status).toBe(200);
    }
  }
  const expected = Object.values(USAGE).reduce((sum, usage) => sum + usage.calls, 0);
  // The log writer batches rows for about a second before the roll-up has them.
  for (let attempt = 0; attempt < 75; attempt++) {
    const rows = await call<Array<{ RequestCount: number }> | null>('GET', '/api/user/dashboard', auth);
    if ((rows ?? []).reduce((sum, row) => sum + row.RequestCount, 0) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the relayed requests never reached the dashboard statistics');
}

// ---------------------------------------------------------------------------------------------
// Browser helpers.

const pages = pageOpener(() => browser);
export const openPage = pages.open;

export const signIn = (page: Page, username: string, password: string) =>
  signInWithForm(page, server.origin, username, password);

export const lastToast = (page: Page) => page.locator('.notistack-MuiContent').last();

/** Lets the charts and fonts settle (and, unless they are the point, the toasts go) before a screenshot. */
export async function settledScreenshot(
  page: Page,
  name: string,
  options: { keepToasts?: boolean; fullPage?: boolean } = {},
): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  // A full-page capture of a scrolled page paints the fixed top bar mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  if (!options.keepToasts) {
    await expect.poll(() => page.locator('.notistack-MuiContent').count(), { timeout: 15_000 }).toBe(0);
  }
  // The side drawer may still be sliding in after the first paint; capture it at rest.
  await page.locator('[data-testid=side-drawer][data-settled=true]').first().waitFor({ state: 'attached' });
  await screenshot(page, name, { fullPage: options.fullPage ?? true });
}

/** Starts the site before the file's tests and stops it after them. */
export function useAccountSite(): void {
  beforeAll(async () => {
    upstream = await startMockUpstream();
    mail = await startMailCatcher();
    server = await startServer({
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      // Many sign-ins and password changes from one address in a few seconds.
      CRITICAL_RATE_LIMIT: '0',
    });
    const options: Record<string, string> = {
      ...Object.fromEntries(smtpOptions(mail)),
      WeChatServerAddress: upstream.url,
      WeChatAuthEnabled: 'true',
      GitHubClientId: 'e2e-github-client',
      GitHubClientSecret: 'e2e-github-secret',
      GitHubOAuthEnabled: 'true',
    };
    for (const [key, value] of Object.entries(options)) await call('PUT', '/api/option/', root, { key, value });
    for (const [name, user] of Object.entries(USERS)) userIds[name] = await createUser(user);
    await call('POST', '/api/channel/', root, {
      name: 'mock upstream',
      type: 1,
      key: 'sk-mock-upstream',
      base_url: upstream.url,
      models: Object.keys(USAGE).join(','),
      group: 'default',
    });
    // Below 60 a minute the limiter counts a fixed window, so the rate card's figure is exact.
    await setGroupRate('default', 30);
    await setGroupRate('vip', 0);
    await call('PUT', '/api/user/', root, { id: userIds.dave, group: 'vip' });
    await call('POST', `/api/user/quota/${userIds.carol}`, root, { quota: 50 * QUOTA_PER_DOLLAR });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
    await upstream?.close();
    await mail?.close();
  });
}
