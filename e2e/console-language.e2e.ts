/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall, sessionCookie } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-language';
const READER = { username: 'reader', password: 'reader-password-1' };
const desktop = { width: 1280, height: 860 };

/** The sign-in button in each language: what a visitor sees first. */
const signIn = { en_US: 'Sign in', ja_JP: 'ログイン', zh_HK: '登入', zh_CN: '登录' } as const;

let server: RunningServer;
let browser: Browser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

/**
 * A first visit from a browser set to `locale` (its Accept-Language and navigator.languages): a
 * fresh context, so nothing is stored from an earlier visit and no language was ever chosen.
 */
async function visitor(locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: desktop });
  contexts.push(context);
  return context.newPage();
}

/**
 * Opens the sign-in page and checks it is in `language` once the site information has been applied:
 * the console may start in the browser's language and switch when `/api/status` names a site
 * language, so the page is read only after the answer was stored (the same step applies it).
 */
async function expectSignInPage(page: Page, language: keyof typeof signIn): Promise<void> {
  await page.goto(`${server.origin}/login`);
  await page.waitForFunction(() => window.localStorage.getItem('siteInfo') !== null);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(language.replace('_', '-'));
  await page.getByTestId('login-submit').filter({ hasText: signIn[language] }).waitFor();
}

const siteLanguage = async () =>
  (await apiCall<{ language: string }>(server.origin, 'GET', '/api/status', {})).language;

beforeAll(async () => {
  server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
  admin = adminApi(server.origin, ROOT_TOKEN);
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

describe('the console speaks the visitor’s language (issue 31)', () => {
  it('gives an English browser the English console on a fresh server, whose site language is not set', async () => {
    expect(await siteLanguage()).toBe('');
    const page = await visitor('en-US');
    await expectSignInPage(page, 'en_US');
    await screenshot(page, 'language-english-browser');
  });

  it('gives a Japanese browser the Japanese console', async () => {
    const page = await visitor('ja-JP');
    await expectSignInPage(page, 'ja_JP');
  });

  it('words the server’s log rows in the reader’s language, keeping One Hub’s stored text', async () => {
    await admin.createUser(READER);
    const cookie = await sessionCookie(server.origin, READER.username, READER.password);
    const user = await apiCall<{ id: number }>(server.origin, 'GET', '/api/user/self', { cookie });
    await admin.addQuota(user.id, 1_500_000);
    const page = await visitor('en-US');
    await signInWithForm(page, server.origin, READER.username, READER.password);
    await page.goto(`${server.origin}/panel/log`);
    const row = page.locator('[data-testid^="log-detail-"]', { hasText: 'An administrator (#1) added $3.00' });
    await row.waitFor();
    // The row itself still holds One Hub's text for the consoles and scripts that read it.
    const logs = await apiCall<{ data: Array<{ content: string }> }>(server.origin, 'GET', '/api/log/?page=1&size=10', {
      token: ROOT_TOKEN,
    });
    expect(logs.data.map((log) => log.content)).toContain('管理员增减用户额度 ＄3.000000 额度, 操作者 #1');
  });

  it('follows the site language once an administrator sets it in the settings, and the browser again once unset', async () => {
    const rootPage = await visitor('en-US');
    // The administrator picked English for themselves; what they set is the site's language.
    await rootPage.addInitScript(() => window.localStorage.setItem('appLanguage', 'en_US'));
    await signInWithForm(rootPage, server.origin, 'root', ROOT_PASSWORD);
    await rootPage.goto(`${server.origin}/panel/setting?tab=other`);
    await rootPage.getByTestId('setting-panel-other').waitFor();
    const languageField = rootPage.getByTestId('setting-field-Language').locator('xpath=..').getByRole('combobox');
    await languageField.filter({ hasText: 'Not set' }).waitFor();
    await languageField.click();
    await rootPage.getByTestId('setting-field-Language-choice-zh_HK').click();
    await rootPage.getByTestId('setting-save-branding').click();
    await expect.poll(siteLanguage).toBe('zh_HK');

    const english = await visitor('en-US');
    await expectSignInPage(english, 'zh_HK');
    await screenshot(english, 'language-site-zh_HK');

    await languageField.click();
    await rootPage.getByTestId('setting-field-Language-choice-unset').click();
    await rootPage.getByTestId('setting-save-branding').click();
    await expect.poll(siteLanguage).toBe('');
    await expectSignInPage(await visitor('en-US'), 'en_US');
    await admin.setOption('Language', 'zh_HK');
  });

  it('lets the visitor’s own choice win over the site language and the browser, on this visit and the next', async () => {
    expect(await siteLanguage()).toBe('zh_HK');
    const page = await visitor('en-US');
    await expectSignInPage(page, 'zh_HK');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-ja_JP').click();
    await page.getByTestId('login-submit').filter({ hasText: signIn.ja_JP }).waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('appLanguage'))).toBe('ja_JP');
    // The next visit: the stored site information is dropped so the check waits for a fresh answer.
    await page.evaluate(() => window.localStorage.removeItem('siteInfo'));
    await expectSignInPage(page, 'ja_JP');
  });
});
