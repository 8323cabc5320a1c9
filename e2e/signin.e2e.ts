/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from './support/api.js';
import { launchBrowser, screenshot } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-0123456789';

/** These tests read English texts; the language choice is stored before any page script runs. */
async function englishPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => window.localStorage.setItem('appLanguage', 'en_US'));
  return page;
}

describe('sign-in page and signed-in page', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
    // $2.47 at the default 500000 quota per dollar.
    await adminApi(server.origin, ROOT_TOKEN).addQuota(1, 1_234_567);
    browser = await launchBrowser();
    page = await englishPage(browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends an anonymous visitor of the console to the sign-in page', async () => {
    await page.goto(`${server.origin}/panel`);
    await page.waitForURL('**/login');
    await expect.poll(() => page.title()).toBe('One Hub');
    await screenshot(page, 'login');
  });

  it('shows the server’s message for a wrong password and stays on the page', async () => {
    await page.locator('input[name=username]').fill('root');
    await page.locator('input[name=password]').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('wrong username or password');
    expect(page.url()).toContain('/login');
    await screenshot(page, 'login-error');
  });

  it('signs in and shows the user’s name, role and quota', async () => {
    await page.locator('input[name=password]').fill(ROOT_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/panel**');
    await expect.poll(() => page.getByTestId('user-name').textContent()).toContain('Root User');
    expect(await page.getByTestId('user-role').textContent()).toContain('Root');
    expect(await page.getByTestId('user-quota').textContent()).toContain('$2.47');
    await screenshot(page, 'panel');
  });

  it('keeps the session across a reload of a client-side route', async () => {
    await page.reload();
    await expect.poll(() => page.getByTestId('user-name').textContent()).toContain('Root User');
  });

  it('signs out to the home page, and the console asks for a sign-in again', async () => {
    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL(`${server.origin}/`);
    await page.goto(`${server.origin}/panel`);
    await page.waitForURL('**/login');
  });
});

describe('console under a BASE_PATH', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ BASE_PATH: '/hub/', INITIAL_ROOT_PASSWORD: ROOT_PASSWORD });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('loads assets and routes below the base path and signs in', async () => {
    const page = await englishPage(browser);
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().includes('/api/')) failed.push(response.url());
    });
    await page.goto(`${server.origin}/hub/panel`);
    await page.waitForURL('**/hub/login');
    await page.locator('input[name=username]').fill('root');
    await page.locator('input[name=password]').fill(ROOT_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/hub/panel**');
    await expect.poll(() => page.getByTestId('user-role').textContent()).toContain('Root');
    await page.getByTestId('menu-token').click();
    await page.waitForURL('**/hub/panel/token');
    expect(failed).toEqual([]);
  });
});
