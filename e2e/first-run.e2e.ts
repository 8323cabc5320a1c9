/// <reference lib="dom" />
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const resetCli = fileURLToPath(new URL('../apps/server/dist/reset-root-password.js', import.meta.url));
const printedPassword = (text: string) => /password: (\S+)/.exec(text)?.[1] ?? '';

describe('first run: the generated root password', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // No INITIAL_ROOT_PASSWORD, and a log level that hides everything but errors: the banner still shows.
    server = await startServer({ LOG_LEVEL: 'error', INITIAL_ROOT_QUOTA: '100000000' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => window.localStorage.setItem('appLanguage', 'en_US'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByTestId('password-change-dialog');

  it('is printed on standard output with the console address, and asked to be changed at the first sign-in', async () => {
    await expect.poll(() => printedPassword(server.output())).toHaveLength(16);
    expect(server.output()).toContain('username: root');
    expect(server.output()).toMatch(/console: {2}http:\/\/localhost:\d+/);
    const password = printedPassword(server.output());

    await signInWithForm(page, server.origin, 'root', password);
    await dialog().waitFor();
    await screenshot(page, 'first-run-password-change');
    // The password was just typed at sign-in: it is not asked for again.
    await page.getByTestId('password-change-new').waitFor();
    expect(await page.getByTestId('password-change-current').count()).toBe(0);

    // A new password is required.
    await page.getByTestId('password-change-submit').click();
    await expect.poll(() => dialog().locator('.Mui-error').count()).toBeGreaterThan(0);
    // After a reload the console no longer knows it: then the generated one must be given as the current password.
    await page.reload();
    await dialog().waitFor();
    await page.getByTestId('password-change-current').fill('not-the-password');
    await page.getByTestId('password-change-new').fill('root-own-password');
    await page.getByTestId('password-change-confirm').fill('root-own-password');
    await page.getByTestId('password-change-submit').click();
    await expect
      .poll(() => page.locator('.notistack-MuiContent-error').last().textContent())
      .toContain('original_password');
    await page.getByTestId('password-change-current').fill(password);
    await page.getByTestId('password-change-submit').click();
    await dialog().waitFor({ state: 'detached' });

    const self = await page.evaluate(async () => (await (await fetch('/api/user/self')).json()).data);
    expect(self.password_change_required).toBe(false);
    await page.reload();
    await page.getByTestId('user-name').waitFor();
    expect(await dialog().count()).toBe(0);
    // Root starts with a balance to try the first channel with (INITIAL_ROOT_QUOTA, $200 here).
    await expect.poll(() => page.getByTestId('user-quota').textContent()).toContain('$200.00');
  });

  it('can be set anew with npm run reset-root-password while the server runs, and is asked to be changed again', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [resetCli], {
      env: { ...process.env, SQLITE_PATH: join(server.dataDirectory, 'one-hub.db'), LOG_LEVEL: 'error' },
    });
    const password = printedPassword(stdout);
    expect(password).toHaveLength(16);

    // The reset ended the session: the console sends the visitor to sign in again.
    await page.goto(`${server.origin}/panel/dashboard`);
    await page.waitForURL('**/login');
    // …and says why.
    await expect.poll(() => page.getByTestId('session-ended').textContent()).toContain('your session ended');
    await signInWithForm(page, server.origin, 'root', password);
    await dialog().waitFor();
    await page.getByTestId('password-change-new').fill('root-second-password');
    await page.getByTestId('password-change-confirm').fill('root-second-password');
    await page.getByTestId('password-change-submit').click();
    await dialog().waitFor({ state: 'detached' });
  });
});
