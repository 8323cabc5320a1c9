/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall, sessionCookie } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-settings';
const ADMIN = { username: 'opsadmin', password: 'ops-admin-password-1' };
const SMTP_SECRET = 'e2e-smtp-secret-value-7731';
const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

let server: RunningServer;
let browser: Browser;
let admin: AdminApi;

function call<T>(method: string, path: string, body?: unknown, auth: string = ROOT_TOKEN): Promise<T> {
  return apiCall<T>(
    server.origin,
    method,
    path,
    auth.startsWith('session=') ? { cookie: auth } : { token: auth },
    body,
  );
}

/** The stored value of one readable option, as root reads it. */
async function option(key: string): Promise<string | undefined> {
  const list = await call<Array<{ key: string; value: string }>>('GET', '/api/option/');
  return list.find((entry) => entry.key === key)?.value;
}

async function openPage(options: { theme?: string; viewport?: typeof desktop } = {}) {
  const page = await browser.newPage({ viewport: options.viewport ?? desktop });
  await page.addInitScript(
    ([theme]) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', 'en_US');
      if (theme) window.localStorage.setItem('theme', theme);
    },
    [options.theme ?? ''],
  );
  return page;
}

async function openSettings(page: Page, tab: string) {
  await page.goto(`${server.origin}/panel/setting?tab=${tab}`);
  await page.getByTestId(`setting-panel-${tab}`).waitFor();
}

/** A full-page screenshot from the top (a scrolled page would draw the fixed top bar mid-way). */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const field = (page: Page, key: string) => page.getByTestId(`setting-field-${key}`);
const helpText = async (page: Page, key: string) =>
  ((await page.getByTestId(`setting-help-${key}`).textContent()) ?? '').trim();

beforeAll(async () => {
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    CRITICAL_RATE_LIMIT: '1000',
    // Info lines too, for the system information screen.
    LOG_LEVEL: 'info',
  });
  admin = adminApi(server.origin, ROOT_TOKEN);
  await admin.createUser(ADMIN);
  await call('POST', '/api/user/manage', { username: ADMIN.username, action: 'promote' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('settings as root', () => {
  let page: Page;
  /** Every body the console received from the option API, to prove a secret never travels back. */
  const optionResponses: string[] = [];

  beforeAll(async () => {
    page = await openPage();
    page.on('response', async (response) => {
      if (!response.url().includes('/api/option/')) return;
      optionResponses.push(await response.text().catch(() => ''));
    });
    await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await page.close();
  });

  it('opens on the operation tab and keeps the tab in the URL', async () => {
    await page.goto(`${server.origin}/panel/setting`);
    await page.getByTestId('setting-panel-operation').waitFor();
    expect(await page.getByTestId('setting-tab-operation').getAttribute('aria-selected')).toBe('true');
    expect(await field(page, 'QuotaPerUnit').inputValue()).toBe('500000');
    await shot(page, 'settings-operation');
    await page.getByTestId('setting-tab-system').click();
    await page.getByTestId('setting-panel-system').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('system');
    await page.goBack();
    await page.getByTestId('setting-panel-operation').waitFor();
  });

  it('renames the system and the header and title follow after saving', async () => {
    await openSettings(page, 'other');
    await field(page, 'SystemName').fill('Acme Settings Hub');
    expect(await page.getByTestId('setting-dirty-branding').getAttribute('data-count')).toBe('1');
    expect(await page.getByTestId('setting-tab-dirty-other').count()).toBe(1);
    // The edit survives a change of tab.
    await page.getByTestId('setting-tab-system').click();
    await page.getByTestId('setting-panel-system').waitFor();
    await page.getByTestId('setting-tab-other').click();
    expect(await field(page, 'SystemName').inputValue()).toBe('Acme Settings Hub');

    await page.getByTestId('setting-save-branding').click();
    const saved = page.getByTestId('setting-saved-branding');
    await saved.waitFor();
    expect(await saved.getAttribute('data-keys')).toBe('SystemName');
    expect(await page.getByTestId('setting-tab-dirty-other').count()).toBe(0);
    await expect.poll(() => page.title()).toBe('Acme Settings Hub');
    await expect
      .poll(async () => (await page.locator('header').first().textContent()) ?? '')
      .toContain('Acme Settings Hub');
    expect(await option('SystemName')).toBe('Acme Settings Hub');
    await shot(page, 'settings-other');
  });

  it('refuses invalid discount JSON on the field, saves nothing, then saves the fixed map', async () => {
    await openSettings(page, 'operation');
    const discount = field(page, 'RechargeDiscount');
    await discount.fill('{"100": 0.95');
    await page.getByTestId('setting-save-topup').click();
    await expect.poll(() => discount.getAttribute('aria-invalid')).toBe('true');
    expect(await helpText(page, 'RechargeDiscount')).toMatch(/JSON/);
    expect(await option('RechargeDiscount')).toBe('{}');

    // Valid JSON of the wrong shape is refused by the same contract rule.
    await discount.fill('{"100": 1.5}');
    await page.getByTestId('setting-save-topup').click();
    await expect.poll(() => helpText(page, 'RechargeDiscount')).toContain('100');
    expect(await discount.getAttribute('aria-invalid')).toBe('true');
    expect(await option('RechargeDiscount')).toBe('{}');
    await shot(page, 'settings-discount-error');

    await discount.fill('{"100": 0.95, "500": 0.9}');
    expect(await discount.getAttribute('aria-invalid')).toBe('false');
    await page.getByTestId('setting-save-topup').click();
    await page.getByTestId('setting-saved-topup').waitFor();
    expect(JSON.parse((await option('RechargeDiscount')) ?? '')).toEqual({ 100: 0.95, 500: 0.9 });

    await page.reload();
    await page.getByTestId('setting-panel-operation').waitFor();
    expect(JSON.parse(await field(page, 'RechargeDiscount').inputValue())).toEqual({ 100: 0.95, 500: 0.9 });
  });

  it('persists the quota per unit and the retry times, and checks numbers in the browser', async () => {
    await openSettings(page, 'operation');
    await field(page, 'RetryTimes').fill('-2');
    await page.getByTestId('setting-save-retry').click();
    await expect.poll(() => field(page, 'RetryTimes').getAttribute('aria-invalid')).toBe('true');
    expect(await helpText(page, 'RetryTimes')).toContain('0');
    // Refused: the stored value is still the default (2: a failing channel is retried on two others).
    expect(await option('RetryTimes')).toBe('2');

    await field(page, 'RetryTimes').fill('3');
    await field(page, 'RetryCooldownSeconds').fill('12');
    expect(await page.getByTestId('setting-dirty-retry').getAttribute('data-count')).toBe('2');
    await page.getByTestId('setting-save-retry').click();
    await page.getByTestId('setting-saved-retry').waitFor();
    expect(await option('RetryTimes')).toBe('3');
    expect(await option('RetryCooldownSeconds')).toBe('12');

    await field(page, 'QuotaPerUnit').fill('1000000');
    await page.getByTestId('setting-save-quota').click();
    await page.getByTestId('setting-saved-quota').waitFor();
    expect(await page.getByTestId('setting-saved-quota').getAttribute('data-keys')).toBe('QuotaPerUnit');

    await page.reload();
    await page.getByTestId('setting-panel-operation').waitFor();
    expect(await field(page, 'RetryTimes').inputValue()).toBe('3');
    expect(await field(page, 'QuotaPerUnit').inputValue()).toBe('1000000');
    const status = await call<{ quota_per_unit: number }>('GET', '/api/status');
    expect(status.quota_per_unit).toBe(1_000_000);
  });

  it('edits the chat links as rows and stores them as JSON', async () => {
    await openSettings(page, 'operation');
    await page.getByTestId('setting-chatlink-add').click();
    await page.getByTestId('setting-chatlink-name-4').fill('Team chat');
    await page.getByTestId('setting-save-chatLinks').click();
    // The new row has no URL yet: the contract rule points at it and nothing is stored.
    await expect.poll(() => page.getByTestId('setting-error-ChatLinks').count()).toBe(1);
    expect(await option('ChatLinks')).not.toContain('Team chat');
    await page.getByTestId('setting-chatlink-url-4').fill('https://chat.example.com/#/?key={key}&url={server}');
    await page.getByTestId('setting-save-chatLinks').click();
    await page.getByTestId('setting-saved-chatLinks').waitFor();
    const links = JSON.parse((await option('ChatLinks')) ?? '[]') as Array<{ name: string; url: string; sort: number }>;
    expect(links).toHaveLength(5);
    expect(links[4]).toMatchObject({ name: 'Team chat', url: 'https://chat.example.com/#/?key={key}&url={server}' });
    expect(links[4]?.sort).toBe(5);
  });

  it('takes an SMTP token without ever showing or sending it back', async () => {
    await openSettings(page, 'system');
    const status = page.getByTestId('setting-secret-SMTPToken');
    expect(await status.getAttribute('data-state')).toBe('unset');
    await field(page, 'SMTPServer').fill('smtp.example.com');
    await field(page, 'SMTPToken').fill(SMTP_SECRET);
    expect(await page.getByTestId('setting-dirty-smtp').getAttribute('data-count')).toBe('2');
    await page.getByTestId('setting-save-smtp').click();
    await page.getByTestId('setting-saved-smtp').waitFor();
    await expect.poll(() => status.getAttribute('data-state')).toBe('set');
    expect(await field(page, 'SMTPToken').inputValue()).toBe('');
    expect(await field(page, 'SMTPToken').getAttribute('placeholder')).toBeTruthy();
    expect(await field(page, 'SMTPPort').inputValue()).toBe('587');

    const listed = await fetch(`${server.origin}/api/option/`, { headers: { authorization: ROOT_TOKEN } });
    const body = await listed.text();
    expect(body).toContain('smtp.example.com');
    expect(body).not.toContain(SMTP_SECRET);
    expect(optionResponses.length).toBeGreaterThan(0);
    for (const response of optionResponses) expect(response).not.toContain(SMTP_SECRET);
    await page.reload();
    await page.getByTestId('setting-panel-system').waitFor();
    expect(await page.getByTestId('setting-secret-SMTPToken').getAttribute('data-state')).toBe('set');
    expect(await page.content()).not.toContain(SMTP_SECRET);
    await shot(page, 'settings-system');
  });

  it('shows the server refusal when GitHub sign-in is switched on without a client id', async () => {
    await openSettings(page, 'system');
    await field(page, 'GitHubOAuthEnabled').check();
    await page.getByTestId('setting-save-github').click();
    const error = page.getByTestId('setting-error-GitHubOAuthEnabled');
    await error.waitFor();
    expect(await error.textContent()).toContain('GitHubClientId');
    expect(await field(page, 'GitHubOAuthEnabled').isChecked()).toBe(true);
    expect(await page.getByTestId('setting-dirty-github').getAttribute('data-count')).toBe('1');
    expect(await option('GitHubOAuthEnabled')).toBe('false');
    await shot(page, 'settings-github-refused');
    await page.getByTestId('setting-discard-github').click();
    expect(await field(page, 'GitHubOAuthEnabled').isChecked()).toBe(false);
    expect(await error.count()).toBe(0);
  });

  it('deletes old logs after a confirmation', async () => {
    await openSettings(page, 'operation');
    await page.getByTestId('setting-log-cleanup').click();
    await page.getByTestId('setting-log-cleanup-confirm').click();
    const result = page.getByTestId('setting-log-cleanup-result');
    await result.waitFor();
    expect(Number(await result.getAttribute('data-count'))).toBeGreaterThanOrEqual(0);
  });
});

describe('settings in other conditions', () => {
  it('looks right in dark mode on a phone', async () => {
    const page = await openPage({ theme: 'dark', viewport: phone });
    await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
    await openSettings(page, 'system');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(phone.width);
    await shot(page, 'settings-system-phone-dark');
    await openSettings(page, 'other');
    await page.getByTestId('setting-preview-Notice').click();
    await page.getByTestId('setting-preview-box-Notice').waitFor();
    await shot(page, 'settings-other-phone-dark');
    await page.close();
  });

  it('is closed to an administrator who is not root', async () => {
    const cookie = await sessionCookie(server.origin, ADMIN.username, ADMIN.password);
    const refused = await fetch(`${server.origin}/api/option/`, { headers: { cookie } });
    expect(refused.status).toBe(403);
    const secrets = await fetch(`${server.origin}/api/option/secrets`, { headers: { cookie } });
    expect(secrets.status).toBe(403);

    const page = await openPage();
    await signInWithForm(page, server.origin, ADMIN.username, ADMIN.password);
    // No Settings entry in its menu, and the route's guard answers 403 before the page asks anything.
    await page.getByTestId('menu-user').waitFor();
    expect(await page.getByTestId('menu-setting').count()).toBe(0);
    const optionCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/option')) optionCalls.push(request.url());
    });
    await page.goto(`${server.origin}/panel/setting?tab=system`);
    await page.getByTestId('forbidden').waitFor();
    expect(optionCalls).toEqual([]);
    expect(await page.getByTestId('setting-panel-system').count()).toBe(0);
    await shot(page, 'settings-not-root');
    // Nor the system information screen: no entry, the 403 screen, and the log API refuses.
    expect(await page.getByTestId('menu-system_info').count()).toBe(0);
    await page.goto(`${server.origin}/panel/system_info`);
    await page.getByTestId('forbidden').waitFor();
    const log = await fetch(`${server.origin}/api/system_info/log`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ count: 10 }),
    });
    expect(log.status).toBe(403);
    await page.close();
  });
});

describe('system information as root', () => {
  it("shows the server's recent log lines, newest first, filtered by level and text", async () => {
    const page = await openPage();
    await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
    await page.getByTestId('menu-system_info').click();
    await page.getByTestId('system-info-page').waitFor();
    const lines = page.getByTestId('system-info-line');
    // The start-up line of the database is in the server's buffer.
    await lines.filter({ hasText: 'database ready' }).first().waitFor();
    await screenshot(page, 'system-info');

    await page.getByTestId('system-info-search').fill('database ready');
    await expect
      .poll(async () => (await lines.allTextContents()).every((line) => line.includes('database ready')))
      .toBe(true);
    expect(await lines.count()).toBeGreaterThan(0);

    // Warnings and up leave the info line out: nothing matches both.
    await page.getByTestId('system-info-level').click();
    await page.getByTestId('system-info-level-warn').click();
    await page.getByTestId('system-info-empty').waitFor();
    expect(await lines.count()).toBe(0);
    await page.close();
  });
});
