/// <reference lib="dom" />
/**
 * What the admin journey (admin-journey.e2e.ts) stands on: the mock upstream (mock-openai.ts),
 * read-back through the management API (never used to change anything) with the rows it answers,
 * and browser helpers. `useJourneySite()` starts the site; the bindings below are live,
 * set by its `beforeAll`.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { apiCall } from './api.js';

export { settle } from './api.js';

import { closed, launchBrowser, screenshot, signInWithForm } from './browser.js';
import { type MockAnswer, type MockUpstream, startMockUpstream } from './mock-openai.js';
import { type RunningServer, startServer } from './server.js';

// ---- read-back through the management API (never used to change anything) ----

export interface ChannelRow {
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
export interface UserRow {
  id: number;
  username: string;
  display_name: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
}
export interface LogRow {
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
export interface CodeRow {
  id: number;
  key: string;
  name: string;
  quota: number;
  status: number;
  redeemed_username: string;
}

export let server: RunningServer;
export let upstream: MockUpstream;
let browser: Browser;
export const ROOT_PASSWORD = 'e2e-root-initial-password';
/** Only for reading back and asserting; nothing is changed with it. */
const ROOT_TOKEN = 'e2e-root-access-token-journey-0001';

export const read = <T>(path: string) => apiCall<T>(server.origin, 'GET', path, { token: ROOT_TOKEN });
export const paged = async <T>(path: string) => (await read<{ data: T[]; total_count: number }>(path)).data;
export const findUser = async (username: string) =>
  (await paged<UserRow>(`/api/user/?keyword=${encodeURIComponent(username)}&size=100`)).find(
    (user) => user.username === username,
  );
export const options = async () =>
  new Map((await read<Array<{ key: string; value: string }>>('/api/option/')).map((entry) => [entry.key, entry.value]));
export const consumeLogs = (username: string) =>
  paged<LogRow>(`/api/log/?log_type=2&username=${encodeURIComponent(username)}&size=100`);

const desktop = { width: 1366, height: 900 };

// ---- browser helpers ----

export async function newContext(): Promise<BrowserContext> {
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

/** A full-page screenshot from the top, once dialogs and toasts have finished moving. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `journey-${name}`);
}

/** Goes to a screen the way a person does: through the drawer, opening its collapse first. */
export async function openFromMenu(page: Page, id: string, collapse?: string): Promise<void> {
  const item = page.getByTestId(`menu-${id}`);
  if (collapse && !(await item.isVisible())) await page.getByTestId(`menu-${collapse}`).click();
  await item.click();
  await page.waitForURL((url) => url.pathname === `/panel/${id}`);
}

/** Starts the mock upstream, the server and a browser before the file's tests; stops them after. */
export function useJourneySite(answer: MockAnswer): void {
  beforeAll(async () => {
    upstream = await startMockUpstream(answer);
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
}

/** The data the screens show, read back: user names, group names, models and their owners. */
export async function shownData(): Promise<string[]> {
  const models = (await read<Array<{ model: string }>>('/api/prices')).map((price) => price.model);
  const owners = Object.values(await read<Record<string, { name: string }>>('/api/ownedby')).map((o) => o.name);
  const users = await paged<UserRow>('/api/user/?size=100');
  const groups = await paged<{ symbol: string; name: string }>('/api/user_group/?size=100');
  return [
    ...users.flatMap((row) => [row.username, row.display_name]),
    ...groups.flatMap((group) => [group.symbol, group.name]),
    ...models,
    ...owners,
  ];
}

/** The admin screens the language check visits, each with what shows it is ready. */
export function languageCheckScreens(
  model: string,
  username: string,
): Array<{ id: string; path: string; ready: (page: Page) => Promise<void> }> {
  return [
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
        await p.getByTestId(`analytics-breakdown-item-${model}`).waitFor();
      },
    },
    {
      id: 'analytics-users',
      path: '/panel/analytics?tab=users',
      ready: (p) => p.getByTestId(`analytics-top-user-${username}`).waitFor(),
    },
    { id: 'log', path: '/panel/log', ready: (p) => p.locator('[data-testid^=log-row-]').first().waitFor() },
  ];
}

/** In a new browser: acknowledges the notice once, so it does not cover the screens, then signs root in. */
export async function signInPastNotice(page: Page, rootPassword: string): Promise<void> {
  await page.goto(`${server.origin}/login`);
  await page.getByTestId('notice-dialog').waitFor();
  await page.getByTestId('notice-close').click();
  await closed(page, 'notice-dialog');
  await signInWithForm(page, server.origin, 'root', rootPassword);
}
