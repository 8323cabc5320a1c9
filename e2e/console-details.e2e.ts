/// <reference lib="dom" />
/**
 * Console details (issue 16 item 10): where keys and profile sit in the menu, the Logs page at
 * 1920 px and on a phone, the playground's key, the token group column, one word for keys, the
 * default group's name in English, the Top up page's calls and what the Logs figures count.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  call,
  generateUsage,
  openPage,
  ROOT_PASSWORD,
  server,
  settledScreenshot,
  signIn,
  USERS,
  useAccountSite,
} from './support/account-site.js';
import { text } from './support/browser.js';

useAccountSite();

const wide = { width: 1920, height: 1080 };
const phone = { width: 390, height: 844 };
const CONTAINER_MAX_WIDTH = 1400;

interface TokenRow {
  id: number;
  name: string;
  group: string;
}

const crumbs = async (page: Page) =>
  (await page.locator('[data-testid=breadcrumbs] li:not([aria-hidden])').allTextContents()).filter((crumb) =>
    crumb.trim(),
  );

const box = async (page: Page, testId: string) => {
  const found = await page.getByTestId(testId).first().boundingBox();
  if (!found) throw new Error(`${testId} is not on the screen`);
  return found;
};

describe('console details', () => {
  beforeAll(async () => {
    const carol = await apiSignIn(USERS.carol.username, USERS.carol.password);
    await generateUsage(carol);
  });

  it('puts API keys and Profile under Account, in the menu and in the breadcrumbs', async () => {
    const page = await openPage({ viewport: wide });
    await signIn(page, USERS.carol.username, USERS.carol.password);
    const account = page.getByTestId('menu-group-account');
    await account.getByTestId('menu-token').waitFor();
    expect(await account.getByTestId('menu-token').count()).toBe(1);
    expect(await account.getByTestId('menu-profile').count()).toBe(1);
    expect(await account.locator('.MuiListSubheader-root, [data-testid^=menu-]').allTextContents()).toEqual([
      'Account',
      'API keys',
      'Profile',
    ]);
    // A common user sees no administration group at all.
    expect(await page.getByTestId('menu-group-setting').count()).toBe(0);

    await page.getByTestId('menu-token').click();
    await page.waitForURL('**/panel/token');
    await expect.poll(() => crumbs(page)).toEqual(['Dashboard', 'Account', 'API keys']);
    await page.getByTestId('menu-profile').click();
    await page.waitForURL('**/panel/profile');
    await expect.poll(() => crumbs(page)).toEqual(['Dashboard', 'Account', 'Profile']);
    await settledScreenshot(page, 'console-menu-1920');

    const mobile = await openPage({ viewport: phone });
    await signIn(mobile, USERS.carol.username, USERS.carol.password);
    await mobile.getByTestId('drawer-toggle').click();
    await mobile.getByTestId('menu-group-account').getByTestId('menu-token').waitFor();
    await settledScreenshot(mobile, 'console-menu-390');
  });

  it('uses one word for keys: the menu, the key screen and the dashboard all say "API keys"', async () => {
    const page = await openPage({ viewport: wide });
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.goto(`${server.origin}/panel/token`);
    await page.getByTestId('token-list').waitFor();
    const screen = (await page.locator('main').textContent()) ?? '';
    expect(await text(page, 'menu-token')).toBe('API keys');
    expect(screen).toContain('API keys');
    expect(screen).not.toMatch(/\btokens?\b/i);
    await page.goto(`${server.origin}/panel/dashboard`);
    await expect.poll(async () => page.locator('main').textContent()).toContain('API keys');
  });

  it('lets the Logs table use the width of a 1920 px screen, with no sideways scrolling', async () => {
    const page = await openPage({ viewport: wide });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto(`${server.origin}/panel/log`);
    await page.locator('[data-testid^=log-row-]').first().waitFor();
    await settledScreenshot(page, 'console-logs-1920');
    const content = await box(page, 'panel-content');
    expect(content.width).toBeGreaterThan(CONTAINER_MAX_WIDTH + 100);
    const scroller = page.getByTestId('log-list').locator('xpath=..');
    const widths = await scroller.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);

    // Screens without wide tables keep the centred column.
    await page.getByTestId('menu-token').click();
    await page.waitForURL('**/panel/token');
    await expect.poll(() => crumbs(page)).toEqual(['Dashboard', 'Account', 'API keys']);
    expect((await box(page, 'panel-content')).width).toBeLessThanOrEqual(CONTAINER_MAX_WIDTH);
  });

  it('keeps the clean-up action of the Logs page out of the way on a phone, for administrators only', async () => {
    const page = await openPage({ viewport: phone });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto(`${server.origin}/panel/log`);
    await page.locator('[data-testid^=log-row-]').first().waitFor();
    const cleanup = await box(page, 'log-cleanup');
    // Below the title, the filters and the figures, beside the refresh button.
    expect(cleanup.y).toBeGreaterThan((await box(page, 'log-filters')).y);
    expect(cleanup.y).toBeGreaterThan((await box(page, 'log-stats')).y);
    expect(Math.abs(cleanup.y - (await box(page, 'log-refresh')).y)).toBeLessThan(4);
    const firstButton = page.locator('main button:visible').first();
    expect(await firstButton.getAttribute('data-testid')).not.toBe('log-cleanup');
    expect(await page.getByTestId('log-cleanup').getAttribute('aria-label')).toBe('Clean up old logs');
    await settledScreenshot(page, 'console-logs-390');

    const user = await openPage({ viewport: phone });
    await signIn(user, USERS.carol.username, USERS.carol.password);
    await user.goto(`${server.origin}/panel/log`);
    await user.locator('[data-testid^=log-row-]').first().waitFor();
    expect(await user.getByTestId('log-cleanup').count()).toBe(0);
  });

  it('says plainly that the Logs figures count usage when another log type is chosen', async () => {
    const page = await openPage({ viewport: wide });
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.goto(`${server.origin}/panel/log?log_type=2`);
    await page.locator('[data-testid^=log-row-]').first().waitFor();
    await expect.poll(() => text(page, 'log-stat-spent')).not.toBe('$0.00');
    expect(await page.getByTestId('log-stats-usage-only').count()).toBe(0);

    await page.goto(`${server.origin}/panel/log?log_type=1`);
    expect(await text(page, 'log-stats-usage-only')).toBe(
      'These figures count usage only: the type filter does not change them.',
    );
    await page.goto(`${server.origin}/panel/log`);
    await page.locator('[data-testid^=log-row-]').first().waitFor();
    expect(await page.getByTestId('log-stats-usage-only').count()).toBe(0);
  });

  it("marks the playground's own key in the key list, and names the group a key takes from its account", async () => {
    const carol = await apiSignIn(USERS.carol.username, USERS.carol.password);
    const page = await openPage({ viewport: wide });
    await signIn(page, USERS.carol.username, USERS.carol.password);
    const madeKey = page.waitForResponse((response) => response.url().includes('/api/token/playground'));
    await page.goto(`${server.origin}/panel/playground`);
    expect((await madeKey).status()).toBe(200);

    const tokens = await call<{ data: TokenRow[] }>('GET', '/api/token/?size=100', carol);
    const playground = tokens.data.find((token) => token.name === 'sys_playground');
    const other = tokens.data.find((token) => token.name !== 'sys_playground');
    if (!playground || !other) throw new Error('expected the playground key and one other key');
    expect(other.group).toBe('');

    await page.goto(`${server.origin}/panel/token`);
    await page.getByTestId(`token-row-${playground.id}`).waitFor();
    expect(await text(page, `token-playground-${playground.id}`)).toBe('Playground');
    expect(await page.getByTestId(`token-playground-${other.id}`).count()).toBe(0);
    await page.getByTestId(`token-playground-${playground.id}`).hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toContain('Made by the playground');

    // Carol is in the group "default": its name in English, and where it comes from, not "Account".
    const group = () => page.getByTestId(`token-group-${other.id}`).locator(':scope > *').allTextContents();
    await expect.poll(group).toEqual(['Default group', 'Same as your account']);
    await settledScreenshot(page, 'console-tokens-1920');
  });

  it('shows the default group under its English name, and under its stored one in Chinese', async () => {
    const page = await openPage({ viewport: wide });
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.goto(`${server.origin}/panel/model_price`);
    await expect.poll(() => text(page, 'model-price-group')).toMatch(/^Default group \(/);
    expect(await page.locator('main').textContent()).not.toContain('默认分组');

    const chinese = await openPage({ viewport: wide, language: 'zh_CN' });
    await signIn(chinese, USERS.carol.username, USERS.carol.password);
    await chinese.goto(`${server.origin}/panel/model_price`);
    await expect.poll(() => text(chinese, 'model-price-group')).toMatch(/^默认分组 \(/);
  });

  it('opens Top up without a failed request: the gateway list answers, empty', async () => {
    const page = await openPage({ viewport: wide });
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console: ${message.text()}`);
    });
    await signIn(page, USERS.carol.username, USERS.carol.password);
    const gateways = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/user/payment');
    await page.goto(`${server.origin}/panel/topup`);
    const answer = await gateways;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ success: true, message: '', data: [] });
    await page.getByTestId('topup-redeem').waitFor();
    expect(await page.getByTestId('topup-payment').count()).toBe(0);
    expect(failures).toEqual([]);
  });
});
