/// <reference lib="dom" />
/**
 * The site the API keys and Logs browser tests share: root, the user Bob, both with a balance, and
 * a channel to a mock upstream that reports the same usage for every answer. Each test file calls
 * `useTokensLogsSite()` once; the bindings below are live, set by its `beforeAll`.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type AdminApi, adminApi, apiCall, authOf } from './api.js';
import { launchBrowser, screenshot, signInWithForm } from './browser.js';
import { type MockUpstream, startMockUpstream } from './mock-openai.js';
import { type PageOptions, pageOpener, phone } from './pages.js';
import { type RunningServer, startServer } from './server.js';

const ROOT_PASSWORD = 'e2e-root-password';
export const ROOT_TOKEN = 'e2e-root-access-token-tokens-logs';
export const BOB = { username: 'bob', password: 'bob-password-1', display_name: 'Bob' };
/** What the mock upstream reports for every answer. */
const USAGE = {
  prompt_tokens: 120,
  completion_tokens: 48,
  total_tokens: 168,
  prompt_tokens_details: { cached_tokens: 64 },
  completion_tokens_details: { reasoning_tokens: 16 },
};

export let server: RunningServer;
export let admin: AdminApi;
let upstream: MockUpstream;
let browser: Browser;

export interface TokenRow {
  id: number;
  name: string;
  key: string;
  status: number;
}

/** A management API call as root (access token) or as a signed-in user (session cookie). */
export const call = <T>(method: string, path: string, body?: unknown, auth: string = ROOT_TOKEN) =>
  apiCall<T>(server.origin, method, path, authOf(auth), body);

export async function createToken(
  name: string,
  extra: Record<string, unknown> = {},
  auth = ROOT_TOKEN,
): Promise<TokenRow> {
  return call<TokenRow>('POST', '/api/token/', { name, remain_quota: 500_000, expired_time: -1, ...extra }, auth);
}

const pages = pageOpener(() => browser);

/** A console page (English and light unless asked) signed in as `user`, root unless given. */
export async function signedInPage(
  user: { username: string; password: string } = { username: 'root', password: ROOT_PASSWORD },
  options: PageOptions = {},
): Promise<Page> {
  const page = await pages.open(options);
  await signInWithForm(page, server.origin, user.username, user.password);
  return page;
}

/** The looks each screen is captured in. */
const LOOKS: Array<[string, PageOptions]> = [
  ['light', {}],
  ['dark', { dark: true }],
  ['zh_CN', { language: 'zh_CN' }],
  ['phone', { viewport: phone }],
];

/**
 * Opens `path` as root in each look and screenshots it as `${name}-<look>` once its rows
 * (`${prefix}-row-…`) are in and no request is left, not after a guessed pause; `more` takes
 * further captures of the same page.
 */
export async function screenshotLooks(
  path: string,
  prefix: string,
  name: string,
  more?: (page: Page, look: string) => Promise<void>,
): Promise<void> {
  for (const [look, options] of LOOKS) {
    const page = await signedInPage(undefined, options);
    await page.goto(`${server.origin}${path}`, { waitUntil: 'networkidle' });
    await page.locator(`[data-testid^=${prefix}-row-]`).first().waitFor();
    await screenshot(page, `${name}-${look}`);
    await more?.(page, look);
    await page.close();
  }
}

/** The ids of the rows a list shows, in its order (`${prefix}-row-<id>`). */
export const rowIds = (page: Page, prefix: string) =>
  page
    .locator(`[data-testid^=${prefix}-row-]`)
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-testid')?.split('-').pop())));

/** Starts the upstream, the server with its users and channel, and the browser; stops them after. */
export function useTokensLogsSite(): void {
  beforeAll(async () => {
    upstream = await startMockUpstream({ model: ['gpt-4o-mini', 'gpt-4o'], pieces: ['Hel', 'lo!'], usage: USAGE });
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
    await call('POST', '/api/channel/', {
      name: 'mock-openai',
      type: 1,
      key: 'sk-upstream',
      base_url: upstream.url,
      models: 'gpt-4o-mini,gpt-4o',
      group: 'default',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
    await upstream?.close();
  });
}
