/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi } from './support/api.js';
import { animationsEnded, launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-0123456789';
const PLAIN_USER = { username: 'alice', password: 'alice-password-1', display_name: 'Alice' };
const desktop = { width: 1280, height: 800 };
const phone = { width: 500, height: 860 };

let server: RunningServer;
let browser: Browser;
let admin: AdminApi;

/** A fresh browser context (own storage and cookies), optionally with a stored language. */
async function openPage(options: { language?: string; viewport?: { width: number; height: number } } = {}) {
  const page = await browser.newPage({ viewport: options.viewport ?? desktop });
  if (options.language) {
    const language = options.language;
    await page.addInitScript((chosen) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', chosen);
    }, language);
  }
  return page;
}

async function signIn(page: Page, username: string, password: string) {
  await signInWithForm(page, server.origin, username, password);
  await page.getByTestId('avatar-menu').waitFor();
}

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).first().textContent()) ?? '';

beforeAll(async () => {
  server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
  admin = adminApi(server.origin, ROOT_TOKEN);
  await admin.createUser(PLAIN_USER);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('anonymous visitors', () => {
  it('are sent to /login from any console route, admin-only or not', async () => {
    const page = await openPage();
    for (const path of ['/panel', '/panel/token', '/panel/user', '/panel/no-such-screen']) {
      await page.goto(`${server.origin}${path}`);
      await page.waitForURL('**/login');
    }
    await page.close();
  });

  it('see Home, About and a sign-in button in the header, but no Playground', async () => {
    const page = await openPage({ language: 'en_US' });
    await page.goto(`${server.origin}/`);
    expect(await text(page, 'public-nav-home')).toBe('Home');
    expect(await page.getByTestId('public-nav-playground').count()).toBe(0);
    await page.getByTestId('public-nav-about').click();
    await page.waitForURL('**/about');
    await page.getByTestId('about-empty').waitFor();
    expect(await text(page, 'public-account-button')).toBe('Sign in');
    await page.getByTestId('public-account-button').click();
    await page.waitForURL('**/login');
    expect(await page.getByTestId('credit-footer').count()).toBe(1);
    const licenceHref = String(await page.getByTestId('footer-licence').getAttribute('href'));
    const licence = await page.request.get(new URL(licenceHref, server.origin).href, { maxRedirects: 0 });
    expect(licence.status()).toBe(200);
    expect(await licence.text()).toContain('MIT License');
    await page.close();
  });

  it('see the 404 screen for unknown paths', async () => {
    const page = await openPage({ language: 'en_US' });
    for (const path of ['/no/such/page', '/404']) {
      await page.goto(`${server.origin}${path}`);
      expect(await text(page, 'not-found')).toContain('Page not found');
    }
    await screenshot(page, 'shell-404');
    await page.close();
  });

  it('are redirected by /jump only to http(s) addresses', async () => {
    const page = await openPage({ language: 'en_US' });
    await page.goto(`${server.origin}/jump?url=${encodeURIComponent('javascript:alert(1)')}`);
    await page.getByTestId('jump-invalid').waitFor();
    const target = `${server.origin}/about`;
    await page.goto(`${server.origin}/jump?url=${encodeURIComponent(target)}`);
    expect(await text(page, 'jump-target')).toBe(target);
    await page.waitForURL(target, { timeout: 10_000 });
    await page.close();
  });
});

describe('site content', () => {
  it('renders the home page content as markdown, without running raw HTML in it', async () => {
    await admin.setOption(
      'HomePageContent',
      '# Welcome to the hub\n\nSome **bold** words. <img src=x onerror="window.hacked=1">',
    );
    const page = await openPage({ language: 'en_US' });
    await page.goto(`${server.origin}/`);
    await page.getByTestId('home-content').waitFor();
    expect(await page.locator('[data-testid=home-content] h1').textContent()).toBe('Welcome to the hub');
    expect(await page.locator('[data-testid=home-content] strong').textContent()).toBe('bold');
    expect(await page.locator('[data-testid=home-content] img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
    await screenshot(page, 'shell-home-markdown');
    await admin.setOption('HomePageContent', '');
    await page.close();
  });

  it('uses the site name as the page title', async () => {
    await admin.setOption('SystemName', 'Acme Gateway');
    const page = await openPage();
    await page.goto(`${server.origin}/about`);
    await expect.poll(() => page.title()).toBe('Acme Gateway');
    await admin.setOption('SystemName', 'One Hub');
    await page.close();
  });

  it('shows a new notice once, and again from the notice button', async () => {
    const page = await openPage({ language: 'en_US' });
    try {
      await admin.setOption('Notice', '**Maintenance** tonight at 22:00');
      await page.goto(`${server.origin}/`);
      await page.getByTestId('notice-dialog').waitFor();
      expect(await page.locator('[data-testid=notice-content] strong').textContent()).toBe('Maintenance');
      await screenshot(page, 'shell-notice');
      await page.getByTestId('notice-close').click();
      await page.getByTestId('notice-dialog').waitFor({ state: 'detached' });
      expect(await page.evaluate(() => window.localStorage.getItem('notice'))).toBe('**Maintenance** tonight at 22:00');

      // After a reload the notice is fetched again; once its answer is in and the page has drawn
      // what follows from it, the dialog would be open if it were going to open.
      const fetched = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/notice');
      await page.reload();
      await page.getByTestId('landing').waitFor();
      await fetched;
      await animationsEnded(page);
      expect(await page.getByTestId('notice-dialog').count()).toBe(0);

      await signIn(page, 'root', ROOT_PASSWORD);
      await page.getByTestId('notice-button').click();
      await page.getByTestId('notice-dialog').waitFor();
      await page.getByTestId('notice-close').click();

      await admin.setOption('Notice', 'A different notice');
      await page.goto(`${server.origin}/about`);
      expect(await text(page, 'notice-content')).toBe('A different notice');
    } finally {
      await admin.setOption('Notice', '');
      await page.close();
    }
  });
});

describe('the console for root', () => {
  let page: Page;

  beforeAll(async () => {
    page = await openPage({ language: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await page.close();
  });

  it('shows the admin-only menu items', async () => {
    for (const id of ['analytics', 'audit', 'user', 'channel', 'operation', 'paySetting', 'setting']) {
      expect(await page.getByTestId(`menu-${id}`).count(), id).toBe(1);
    }
    expect(await text(page, 'drawer-username')).toBe('root');
  });

  it('opens a collapsible group at its first child and highlights it, with breadcrumbs', async () => {
    await page.getByTestId('menu-operation').click();
    await page.waitForURL('**/panel/user_group');
    await expect.poll(() => page.getByTestId('menu-user_group').getAttribute('aria-current')).toBe('page');
    expect(await text(page, 'breadcrumbs')).toMatch(
      /Dashboard\s*›?\s*Administration\s*›?\s*Operations\s*›?\s*User groups/,
    );
    await screenshot(page, 'shell-collapse');

    await page.getByTestId('menu-paySetting').click();
    await page.waitForURL('**/panel/redemption');
    await expect.poll(() => page.getByTestId('menu-redemption').getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('menu-payment').count()).toBe(1);
    // The Telegram bot's menu screen sits with the other operations.
    await page.goto(`${server.origin}/panel/telegram`);
    await expect.poll(() => page.getByTestId('menu-telegram').getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('not-found').count()).toBe(0);
  });

  it('shows Dashboard, the group and the item as breadcrumbs, linking back to the dashboard', async () => {
    await page.getByTestId('menu-token').click();
    await page.waitForURL('**/panel/token');
    // The page loads lazily; the breadcrumbs follow once it has rendered.
    const crumbs = async () =>
      (await page.locator('[data-testid=breadcrumbs] li:not([aria-hidden])').allTextContents()).filter((crumb) =>
        crumb.trim(),
      );
    await expect.poll(crumbs).toEqual(['Dashboard', 'Account', 'API keys']);
    await page.locator('[data-testid=breadcrumbs] a').first().click();
    await page.waitForURL('**/panel/dashboard');
  });

  it('shows the 404 screen inside the console for an unknown screen', async () => {
    await page.goto(`${server.origin}/panel/no-such-screen`);
    expect(await text(page, 'not-found')).toContain('Page not found');
    expect(await page.getByTestId('side-drawer').count()).toBe(1);
  });

  it('switches through the four languages, saving the choice', async () => {
    const expected: Record<string, string> = {
      zh_CN: '仪表盘',
      zh_HK: '儀表板',
      en_US: 'Dashboard',
      ja_JP: 'ダッシュボード',
    };
    await page.goto(`${server.origin}/panel/dashboard`);
    await page.getByTestId('user-name').waitFor();
    for (const [language, dashboard] of Object.entries(expected)) {
      await page.getByTestId('language-menu').click();
      await page.getByTestId(`language-${language}`).click();
      await expect.poll(() => text(page, 'menu-dashboard')).toBe(dashboard);
      expect(await page.evaluate(() => window.localStorage.getItem('appLanguage'))).toBe(language);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language.replace('_', '-'));
      await screenshot(page, `shell-panel-${language}`);
    }
    await page.reload();
    await expect.poll(() => text(page, 'menu-dashboard')).toBe('ダッシュボード');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-en_US').click();
  });

  it('toggles the theme and keeps it across a reload', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.getByTestId('theme-toggle').getAttribute('data-mode')).toBe('dark');
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await expect.poll(() => page.getByTestId('theme-toggle').getAttribute('data-mode')).toBe('dark');
    expect(await background()).not.toBe(light);
    await screenshot(page, 'shell-panel-dark');
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.getByTestId('theme-toggle').getAttribute('data-mode')).toBe('light');
  });

  it('shows Playground and Console in the public header once signed in', async () => {
    await page.getByTestId('top-bar-home').click();
    await page.waitForURL(`${server.origin}/`);
    await page.getByTestId('public-nav-playground').waitFor();
    expect(await text(page, 'public-account-button')).toBe('Console');
  });
});

describe('the console for a plain user', () => {
  it('hides the admin-only items and guards their routes', async () => {
    const page = await openPage({ language: 'en_US' });
    await signIn(page, PLAIN_USER.username, PLAIN_USER.password);
    for (const id of ['analytics', 'audit', 'user', 'channel', 'operation', 'paySetting', 'setting']) {
      expect(await page.getByTestId(`menu-${id}`).count(), id).toBe(0);
    }
    for (const id of [
      'dashboard',
      'playground',
      'token',
      'profile',
      'topup',
      'model_price',
      'log',
      'midjourney',
      'task',
    ]) {
      expect(await page.getByTestId(`menu-${id}`).count(), id).toBe(1);
    }
    for (const path of [
      '/panel/user',
      '/panel/channel',
      '/panel/setting',
      '/panel/user_group',
      '/panel/redemption',
      '/panel/audit',
    ]) {
      await page.goto(`${server.origin}${path}`);
      await page.getByTestId('forbidden').waitFor();
    }
    await screenshot(page, 'shell-forbidden');

    // A session that ends on the server (401) clears the stored user and leads to /login.
    await page.context().clearCookies();
    await page.goto(`${server.origin}/panel/token`);
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => window.localStorage.getItem('user'))).toBeNull();
    await page.close();
  });
});

describe('small screens (500 px)', () => {
  it('collapse the header links into a menu', async () => {
    const page = await openPage({ language: 'en_US', viewport: phone });
    await page.goto(`${server.origin}/`);
    expect(await page.getByTestId('public-nav-home').isVisible()).toBe(false);
    await page.getByTestId('public-menu-button').click();
    const menu = page.getByTestId('public-menu');
    await menu.getByText('About').click();
    await page.waitForURL('**/about');
    await menu.waitFor({ state: 'detached' });
    await screenshot(page, 'shell-phone-about');
    await page.close();
  });

  it('show toasts at the bottom centre', async () => {
    const page = await openPage({ language: 'en_US', viewport: phone });
    await page.goto(`${server.origin}/login`);
    await page.locator('input[name=username]').fill('root');
    await page.locator('input[name=password]').fill(ROOT_PASSWORD);
    await page.getByTestId('login-submit').click();
    const toast = page.locator('.notistack-MuiContent').first();
    await toast.waitFor();
    await animationsEnded(page);
    const box = await toast.boundingBox();
    expect(box).not.toBeNull();
    if (box) {
      expect(box.y + box.height).toBeGreaterThan(phone.height - 120);
      expect(Math.abs(box.x + box.width / 2 - phone.width / 2)).toBeLessThan(20);
    }
    await screenshot(page, 'shell-phone-toast');
    await page.close();
  });

  it('close the drawer after a choice and scroll the new page to the top', async () => {
    const page = await openPage({ language: 'en_US', viewport: phone });
    await signIn(page, 'root', ROOT_PASSWORD);
    expect(await page.getByTestId('side-drawer').getAttribute('data-open')).toBe('false');
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.getByTestId('drawer-toggle').click();
    await expect.poll(() => page.getByTestId('side-drawer').getAttribute('data-open')).toBe('true');
    await screenshot(page, 'shell-phone-drawer');
    await page.getByTestId('menu-log').click();
    await page.waitForURL('**/panel/log');
    await expect.poll(() => page.getByTestId('side-drawer').getAttribute('data-open')).toBe('false');
    // The address changes and the drawer closes before the log page's code has loaded; the page
    // scrolls to the top when it shows, so that is the state to wait for.
    await page.getByTestId('log-refresh').waitFor();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.close();
  });
});

describe('toasts on a wide screen', () => {
  it('sit at the top centre', async () => {
    const page = await openPage({ language: 'en_US' });
    await page.goto(`${server.origin}/login`);
    await page.locator('input[name=username]').fill('root');
    await page.locator('input[name=password]').fill(ROOT_PASSWORD);
    await page.getByTestId('login-submit').click();
    const toast = page.locator('.notistack-MuiContent').first();
    await toast.waitFor();
    await animationsEnded(page);
    const box = await toast.boundingBox();
    expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(120);
    await page.close();
  });
});
