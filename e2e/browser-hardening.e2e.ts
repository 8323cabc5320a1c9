/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password-hardening';
const ROOT_TOKEN = 'e2e-root-access-token-hardening-01';
const CHAT_CLIENT = 'https://chat.example.org';

let server: RunningServer;
let browser: Browser;
let admin: AdminApi;

interface Watched {
  page: Page;
  /** Every Content-Security-Policy violation the page reported: directive, blocked URI, where. */
  violations(): Promise<string[]>;
}

/**
 * A fresh page that records every CSP violation from its first script on. The list is kept in
 * sessionStorage, so it survives the page's navigations within this site.
 */
async function openWatchedPage(): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => {
    window.localStorage.setItem('appLanguage', 'en_US');
    document.addEventListener('securitypolicyviolation', (event) => {
      const reports = JSON.parse(window.sessionStorage.getItem('csp-violations') ?? '[]') as string[];
      reports.push(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
      window.sessionStorage.setItem('csp-violations', JSON.stringify(reports));
    });
  });
  const violations = () =>
    page.evaluate(() => JSON.parse(window.sessionStorage.getItem('csp-violations') ?? '[]') as string[]);
  return { page, violations };
}

const hacked = (page: Page) => page.evaluate(() => (window as { __hacked?: unknown }).__hacked);

beforeAll(async () => {
  server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
  admin = adminApi(server.origin, ROOT_TOKEN);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('security headers', () => {
  it('come with the console page, its assets and the API', async () => {
    const page = await fetch(`${server.origin}/`);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toMatch(/script-src 'self' [^;]*'sha256-/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("connect-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');

    const script = (await page.text()).match(/src="\.\/(assets\/[^"]+\.js)"/)?.[1];
    const asset = await fetch(`${server.origin}/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-security-policy')).toBe(policy);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');

    const status = await fetch(`${server.origin}/api/status`);
    expect(status.headers.get('x-content-type-options')).toBe('nosniff');
    expect(status.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});

describe('the console under its policy', () => {
  it('is enforced by the browser: a script injected into the page does not run', async () => {
    const { page, violations } = await openWatchedPage();
    await page.goto(`${server.origin}/login`);
    await page.getByTestId('login-page').waitFor();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__hacked = "inline script"';
      document.body.append(script);
    });
    await expect.poll(violations).toContainEqual(expect.stringContaining('script-src'));
    expect(await hacked(page)).toBeUndefined();
    await page.close();
  });

  it("runs the AnalyticsCode setting's inline script under the policy, and none of the markup around it", async () => {
    await admin.setOption(
      'AnalyticsCode',
      '<script>window.__analytics = "counted"</script><img src="x" onerror="window.__hacked = \'analytics markup\'">',
    );
    const { page, violations } = await openWatchedPage();
    await page.goto(`${server.origin}/login`);
    await page.getByTestId('login-page').waitFor();
    await expect.poll(() => page.evaluate(() => (window as { __analytics?: string }).__analytics)).toBe('counted');
    expect(await hacked(page)).toBeUndefined();
    expect(await violations()).toEqual([]);
    await admin.setOption('AnalyticsCode', '');
    await page.close();
  });

  it('renders home, sign-in, about (a framed https page), the dashboard and the playground without a violation', async () => {
    await admin.setOption('Logo', 'https://cdn.example.org/logo.png');
    await admin.setOption('About', 'https://status.example.org/');
    const { page, violations } = await openWatchedPage();
    try {
      await page.goto(`${server.origin}/`);
      await page.getByTestId('landing').waitFor();
      await page.goto(`${server.origin}/about`);
      await page.locator('iframe[data-testid=about-content]').waitFor();
      await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
      await page.getByTestId('user-name').waitFor();
      await screenshot(page, 'hardening-dashboard');
      await page.goto(`${server.origin}/panel/playground`);
      await page.locator('[data-testid=playground], [data-testid=playground-no-models]').first().waitFor();
      await screenshot(page, 'hardening-playground');
      expect(await violations()).toEqual([]);
    } finally {
      await admin.setOption('Logo', '');
      await admin.setOption('About', '');
      await page.close();
    }
  });
});

const HARMFUL_HTML =
  '<div><h2>Hello there</h2><p>Read <a href="https://docs.example.org/start" target="_blank">the docs</a>.</p>' +
  `<img src="x" onerror="window.__hacked='img'"><script>window.__hacked='script'</script>` +
  `<a href="javascript:window.__hacked='link'">click me</a><iframe src="https://evil.example/"></iframe>` +
  '<object data="https://evil.example/x.swf"></object></div>';

/** Asserts the harmful parts of HARMFUL_HTML are gone from `scope` and its safe markup stayed. */
async function expectSanitised(page: Page, scope: string): Promise<void> {
  const box = page.locator(scope);
  expect(await box.locator('h2').textContent()).toBe('Hello there');
  const safeLink = box.getByText('the docs');
  expect(await safeLink.getAttribute('href')).toBe('https://docs.example.org/start');
  expect(await safeLink.getAttribute('rel')).toBe('noopener noreferrer');
  expect(await box.locator('script, iframe, object, [onerror]').count()).toBe(0);
  expect(await box.locator('img').getAttribute('src')).toBe('x');
  const javascriptLink = box.getByText('click me');
  expect(await javascriptLink.getAttribute('href')).toBeNull();
  await javascriptLink.click();
  expect(await hacked(page)).toBeUndefined();
}

describe('administrator HTML', () => {
  it('is sanitised on the about page, the home page and in the footer', async () => {
    await admin.setOption('About', HARMFUL_HTML);
    await admin.setOption('HomePageContent', HARMFUL_HTML);
    await admin.setOption('Footer', HARMFUL_HTML);
    const { page } = await openWatchedPage();
    try {
      await page.goto(`${server.origin}/about`);
      await page.locator('[data-testid=about-content] h2').waitFor();
      await expectSanitised(page, '[data-testid=about-content]');
      await expectSanitised(page, '[data-testid=custom-footer]');
      await screenshot(page, 'hardening-about-sanitised');
      await page.goto(`${server.origin}/`);
      await page.locator('[data-testid=home-content] h2').waitFor();
      await expectSanitised(page, '[data-testid=home-content]');
    } finally {
      for (const key of ['About', 'HomePageContent', 'Footer']) await admin.setOption(key, '');
      await page.close();
    }
  });

  it('in a notice shows its markdown and runs nothing', async () => {
    await admin.setOption('Notice', `**Maintenance** tonight. ${HARMFUL_HTML} [more](javascript:window.__hacked='md')`);
    const { page } = await openWatchedPage();
    try {
      await page.goto(`${server.origin}/`);
      await page.getByTestId('notice-dialog').waitFor();
      const notice = page.getByTestId('notice-content');
      expect(await notice.locator('strong').textContent()).toBe('Maintenance');
      expect(await notice.locator('script, img, iframe, object, [onerror]').count()).toBe(0);
      expect(await notice.locator('a[href^="javascript:" i]').count()).toBe(0);
      await notice.getByText('more', { exact: true }).click();
      expect(await hacked(page)).toBeUndefined();
    } finally {
      await admin.setOption('Notice', '');
      await page.close();
    }
  });
});

describe('/jump', () => {
  it('refuses scripts and sites that are not configured chat clients, and stays put', async () => {
    const { page } = await openWatchedPage();
    for (const target of ["javascript:window.__hacked='jump'", 'https://evil.example/phish', '//evil.example/x']) {
      await page.goto(`${server.origin}/jump?url=${encodeURIComponent(target)}`);
      await page.getByTestId('jump-invalid').waitFor();
      const where = new URL(page.url());
      expect(where.origin + where.pathname).toBe(`${server.origin}/jump`);
      expect(where.searchParams.get('url')).toBe(target);
    }
    expect(await page.getByTestId('jump-invalid').textContent()).toContain('chat clients set by the administrator');
    expect(await hacked(page)).toBeUndefined();
    await page.close();
  });

  it('follows an address on a chat client from the ChatLinks setting', async () => {
    await admin.setOption(
      'ChatLinks',
      JSON.stringify([{ name: 'Web chat', url: `${CHAT_CLIENT}/#/?key={key}&url={server}`, show: true, sort: 1 }]),
    );
    const { page } = await openWatchedPage();
    try {
      // The chat client is not reached: the browser is answered here once it goes there.
      await page.route(`${CHAT_CLIENT}/**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: 'chat client' }),
      );
      const target = `${CHAT_CLIENT}/#/?key=sk-1`;
      await page.goto(`${server.origin}/jump?url=${encodeURIComponent(target)}`);
      expect(await page.getByTestId('jump-target').textContent()).toBe(target);
      await page.waitForURL(target);
    } finally {
      await admin.setOption('ChatLinks', '[]');
      await page.close();
    }
  });
});
