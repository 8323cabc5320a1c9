/// <reference lib="dom" />
/**
 * The site the admin user-management browser tests share: root, the admins Ops and Peer and the
 * user Dora, with helpers that read users and groups back. Each test file calls
 * `useAdminUsersSite()` once; the bindings below are live, set by its `beforeAll`.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { apiCall } from './api.js';
import { launchBrowser, screenshot } from './browser.js';
import { type RunningServer, startServer } from './server.js';

export const ROOT_PASSWORD = 'e2e-root-password';
export const ROOT_TOKEN = 'e2e-root-access-token-admin-users';
export const OPS = { username: 'ops', password: 'ops-password-1', display_name: 'Ops' };
export const PEER = { username: 'peer', password: 'peer-password-1' };
export const DORA = { username: 'dora', password: 'dora-password-1' };
export const CAROL_PASSWORD = 'carol-password-1';
const desktop = { width: 1360, height: 900 };
export const phone = { width: 390, height: 844 };
/** The site shows currency by default: $1 is 500 000 quota. */
export const QUOTA_PER_DOLLAR = 500_000;

export let server: RunningServer;
let browser: Browser;

interface UserRow {
  id: number;
  username: string;
  display_name: string;
  group: string;
  quota: number;
  role: number;
  status: number;
}
interface GroupRow {
  id: number;
  symbol: string;
  name: string;
  ratio: number;
  api_rate: number;
  public: boolean;
  promotion: boolean;
  min: number;
  max: number;
  enable: boolean;
}

export function call<T>(method: string, path: string, body?: unknown, auth: string = ROOT_TOKEN): Promise<T> {
  return apiCall<T>(
    server.origin,
    method,
    path,
    auth.startsWith('session=') ? { cookie: auth } : { token: auth },
    body,
  );
}

/** The HTTP status of a call that is expected to fail. */
export async function statusOf(method: string, path: string, auth: string, body?: unknown): Promise<number> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (auth.startsWith('session=')) headers.cookie = auth;
  else headers.authorization = auth;
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.status;
}

export const findUser = async (username: string) =>
  (await call<{ data: UserRow[] }>('GET', `/api/user/?keyword=${encodeURIComponent(username)}&size=100`)).data.find(
    (user) => user.username === username,
  );
export const findGroup = async (symbol: string) =>
  (await call<{ data: GroupRow[] }>('GET', '/api/user_group/?size=100')).data.find((group) => group.symbol === symbol);

export async function openPage(options: { language?: string; theme?: string; viewport?: typeof desktop } = {}) {
  const page = await browser.newPage({ viewport: options.viewport ?? desktop });
  await page.addInitScript(
    ([language, theme]) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', language ?? 'en_US');
      if (theme) window.localStorage.setItem('theme', theme);
    },
    [options.language ?? 'en_US', options.theme ?? ''],
  );
  return page;
}

export const rowIds = (page: Page, prefix: string) =>
  page
    .locator(`[data-testid^=${prefix}-row-]`)
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-testid')?.split('-').pop())));
/** What a phone shows at once (a full-page capture would stretch a full-screen dialog). */
export const phoneShot = (page: Page, name: string) => screenshot(page, name, { fullPage: false });

/** Starts the site before the file's tests and stops it after them. */
export function useAdminUsersSite(): void {
  beforeAll(async () => {
    server = await startServer({
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      CRITICAL_RATE_LIMIT: '1000',
    });
    for (const user of [OPS, PEER, DORA]) await call('POST', '/api/user/', user);
    for (const username of [OPS.username, PEER.username]) {
      await call('POST', '/api/user/manage', { username, action: 'promote' });
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}
