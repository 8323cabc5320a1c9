/// <reference lib="dom" />
/**
 * The site the payment browser tests share: the built server, an administrator (root, by access
 * token), a paying user, and the Epay simulator of the server's payment tests standing in for the
 * vendor (its cashier page is what the payer clicks). The bindings below are live, set by
 * `usePaymentSite()`'s `beforeAll`.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type EpaySimulator, startEpaySimulator } from '../../apps/server/test/payments/epay/simulator.js';
import { type ApiAuth, apiCall, sessionCookie } from './api.js';
import { launchBrowser, screenshot, signInWithForm } from './browser.js';
import { type RunningServer, startServer } from './server.js';

export const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-payments-01';
export const QUOTA_PER_DOLLAR = 500_000;
export const PAYER = { username: 'payer', password: 'payer-password-1', display_name: 'Payer' };
const desktop = { width: 1280, height: 860 };
export const phone = { width: 400, height: 860 };

export let server: RunningServer;
export let epay: EpaySimulator;
let browser: Browser;
const contexts: BrowserContext[] = [];

export const root: ApiAuth = { token: ROOT_TOKEN };
export const call = <T>(method: string, path: string, auth: ApiAuth, body?: unknown) =>
  apiCall<T>(server.origin, method, path, auth, body);
export const payerAuth = async (): Promise<ApiAuth> => ({
  cookie: await sessionCookie(server.origin, PAYER.username, PAYER.password),
});
export const dollars = (quota: number) => `$${(quota / QUOTA_PER_DOLLAR).toFixed(2)}`;

export async function openPage(
  options: { language?: string; dark?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? desktop,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.addInitScript(
    ({ language, dark }) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', language);
      if (dark) window.localStorage.setItem('theme', 'dark');
    },
    { language: options.language ?? 'en_US', dark: options.dark ?? false },
  );
  return page;
}

export const signIn = (page: Page, username: string, password: string) =>
  signInWithForm(page, server.origin, username, password);
export const signInAsRoot = (page: Page) => signIn(page, 'root', ROOT_PASSWORD);

/** Waits for fonts and for the toasts to go, so screenshots show the screen and nothing passing. */
export async function settledScreenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.locator('.notistack-MuiContent').count(), { timeout: 15_000 }).toBe(0);
  await screenshot(page, name);
}

/** Starts the simulator, the server and the browser before the file's tests; stops them after. */
export function usePaymentSite(): void {
  beforeAll(async () => {
    epay = await startEpaySimulator();
    server = await startServer({
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      CRITICAL_RATE_LIMIT: '0',
    });
    // The notify URL the server gives Epay is built from ServerAddress: the simulator calls it back.
    await call('PUT', '/api/option/', root, { key: 'ServerAddress', value: server.origin });
    await call('POST', '/api/user/', root, PAYER);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    await epay?.close();
  });
}
