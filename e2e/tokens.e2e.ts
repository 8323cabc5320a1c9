/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipboard, expandSection, screenshot, sortDirection, text } from './support/browser.js';
import {
  admin,
  call,
  createToken,
  ROOT_TOKEN,
  rowIds,
  screenshotLooks,
  server,
  signedInPage,
  type TokenRow,
  useTokensLogsSite,
} from './support/tokens-logs-site.js';

// The API keys screen: a key from creation to deletion; its Logs are in logs.e2e.ts.
useTokensLogsSite();

const tokensNamed = async (keyword: string, auth = ROOT_TOKEN) =>
  (
    await call<{ data: TokenRow[] }>(
      'GET',
      `/api/token/?keyword=${encodeURIComponent(keyword)}&size=100`,
      undefined,
      auth,
    )
  ).data;

describe('tokens', () => {
  let page: Page;
  beforeAll(async () => {
    page = await signedInPage();
  });
  afterAll(async () => {
    await page.close();
  });

  it('creates a token with a quota and an expiry after fixing the name', async () => {
    await page.goto(`${server.origin}/panel/token`);
    await page.getByTestId('token-create').click();
    const name = page.getByTestId('token-form-name');
    await page.getByTestId('token-form-submit').click();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.fill('x'.repeat(31));
    await page.getByTestId('token-form-submit').click();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.locator('[data-testid=token-form] .Mui-error.MuiFormHelperText-root').first().textContent(),
    ).toContain('30');
    await screenshot(page, 'tokens-form-error');
    await name.fill('ci-key');
    // In US dollars, as the balance dialog takes them (the site shows currency): 250,000 quota.
    await page.getByTestId('token-form-quota').fill('0.50');
    await page.getByTestId('token-form-preset-week').click();
    await page.getByTestId('token-form-submit').click();

    const created = page.getByTestId('token-created-key');
    await created.waitFor();
    const [token] = await tokensNamed('ci-key');
    expect(token).toBeDefined();
    // The API sends the key without `sk-` (as the reference does); the console shows and copies it with the prefix.
    const full = await call<TokenRow>('GET', `/api/token/${token?.id}`);
    expect(full.key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(await created.textContent()).toBe(`sk-${full.key}`);
    await page.getByTestId('token-created-copy').click();
    await expect.poll(() => clipboard(page)).toBe(`sk-${full.key}`);
    await page.getByTestId('token-created-close').click();

    const id = token?.id ?? 0;
    await page.getByTestId(`token-row-${id}`).waitFor();
    expect(await text(page, `token-name-${id}`)).toBe('ci-key');
    expect(await text(page, `token-remain-${id}`)).toBe('$0.50');
    expect(await text(page, `token-expiry-${id}`)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await page.getByTestId(`token-status-${id}`).getAttribute('data-state')).toBe('enabled');
  });

  it('edits the name, the quota and the limits', async () => {
    const [token] = await tokensNamed('ci-key');
    const id = token?.id ?? 0;
    await page.getByTestId(`token-edit-${id}`).click();
    const name = page.getByTestId('token-form-name');
    expect(await name.inputValue()).toBe('ci-key');
    await name.fill('ci-key-renamed');
    await page.getByTestId('token-form-unlimited').check();
    await expandSection(page, 'token-form-advanced');
    await page.getByTestId('token-form-ip-limit').check();
    await page.getByTestId('token-form-ips').fill('10.0.0.0/8\nnot-an-ip');
    await page.getByTestId('token-form-submit').click();
    expect(await page.getByTestId('token-form-ips').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('token-form-ips').fill('10.0.0.0/8\n127.0.0.1');
    await page.getByTestId('token-form-rpm').fill('120');
    await page.getByTestId('token-form-submit').click();
    await page.getByTestId('token-dialog').waitFor({ state: 'hidden' });

    await expect.poll(() => text(page, `token-name-${id}`)).toBe('ci-key-renamed');
    expect(await text(page, `token-remain-${id}`)).toBe('Unlimited');
    const saved = await call<{ setting: { limits: { rpm: number; limits_ip_setting: { whitelist: string[] } } } }>(
      'GET',
      `/api/token/${id}`,
    );
    expect(saved.setting.limits.rpm).toBe(120);
    expect(saved.setting.limits.limits_ip_setting.whitelist).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('disables and enables a token, and shows the refusal for an expired one', async () => {
    const [token] = await tokensNamed('ci-key');
    const id = token?.id ?? 0;
    const toggle = page.getByTestId(`token-toggle-${id}`);
    await toggle.locator('input').click();
    await expect.poll(() => page.getByTestId(`token-status-${id}`).getAttribute('data-state')).toBe('disabled');
    expect((await call<TokenRow>('GET', `/api/token/${id}`)).status).toBe(2);
    await toggle.locator('input').click();
    await expect.poll(() => page.getByTestId(`token-status-${id}`).getAttribute('data-state')).toBe('enabled');

    const expiry = Math.floor(Date.now() / 1000) + 2;
    const shortLived = await createToken('short-lived', { expired_time: expiry });
    await call('PUT', '/api/token/?status_only=1', { id: shortLived.id, status: 2 });
    // Until the server's clock (this machine's) reaches the expiry, the key may still be enabled.
    await expect.poll(() => Date.now() / 1000).toBeGreaterThanOrEqual(expiry);
    await page.reload();
    await page.getByTestId(`token-toggle-${shortLived.id}`).locator('input').click();
    const refusal = page.locator('.notistack-MuiContent-error').first();
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/expired/);
    await expect
      .poll(() => page.getByTestId(`token-status-${shortLived.id}`).getAttribute('data-state'))
      .toBe('disabled');
  });

  it('copies the full key and opens chat links with it', async () => {
    await admin.setOption(
      'ChatLinks',
      JSON.stringify([
        { name: 'Low', url: 'https://low.example/?k={key}&s={server}', show: true, sort: 1 },
        { name: 'Hidden', url: 'https://hidden.example/?k={key}', show: false, sort: 9 },
        { name: 'High', url: 'https://high.example/#{key}@{server}', show: true, sort: 5 },
      ]),
    );
    await page.goto(`${server.origin}/panel/token`);
    const [token] = await tokensNamed('ci-key');
    const id = token?.id ?? 0;
    const full = `sk-${(await call<TokenRow>('GET', `/api/token/${id}`)).key}`;
    expect(await text(page, `token-masked-key-${id}`)).toBe(`${full.slice(0, 7)}…${full.slice(-4)}`);

    await page.getByTestId(`token-copy-${id}`).click();
    await expect.poll(() => clipboard(page)).toBe(full);

    await page.getByTestId(`token-chat-${id}`).click();
    const links = page.locator(`[data-testid=token-chat-menu-${id}] a[data-testid^=token-chat-link-]`);
    await expect.poll(() => links.first().getAttribute('href')).toBe(`https://high.example/#${full}@${server.origin}`);
    expect(await links.allTextContents()).toEqual(['High', 'Low']);
    expect(await links.nth(1).getAttribute('target')).toBe('_blank');
    await page.keyboard.press('Escape');
  });

  it('keeps search, order and page in the URL', async () => {
    for (let index = 1; index <= 12; index++) await createToken(`bulk-${String(index).padStart(2, '0')}`);
    await page.goto(`${server.origin}/panel/token?keyword=bulk`);
    await expect.poll(() => rowIds(page, 'token').then((ids) => ids.length)).toBe(10);
    expect(await text(page, 'token-pagination')).toContain('1–10 of 12');
    const firstName = async () => page.locator('[data-testid^=token-name-]').first().textContent();

    await page.getByTestId('token-sort-name').click();
    await page.waitForURL(/order=-name/);
    // bulk-12 is first in the default (newest first) order too: the header shows the sort took.
    await expect.poll(() => sortDirection(page, 'token-sort-name')).toBe('descending');
    await expect.poll(firstName).toBe('bulk-12');
    await page.getByTestId('token-sort-name').click();
    await page.waitForURL(/order=name/);
    await expect.poll(() => sortDirection(page, 'token-sort-name')).toBe('ascending');
    await expect.poll(firstName).toBe('bulk-01');

    await page.getByTestId('token-pagination').getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => rowIds(page, 'token').then((ids) => ids.length)).toBe(2);
    await page.reload();
    await expect.poll(firstName).toBe('bulk-11');
    expect(page.url()).toContain('order=name');

    await page.getByTestId('token-search').fill('bulk-1');
    await page.waitForURL(/keyword=bulk-1(&|$)/);
    await expect.poll(() => rowIds(page, 'token').then((ids) => ids.length)).toBe(3);

    await page.goBack();
    await page.waitForURL(/keyword=bulk&.*page=2/);
    await expect.poll(() => page.getByTestId('token-search').inputValue()).toBe('bulk');
    await page.getByTestId('token-search').fill('zzz-none');
    await page.getByTestId('token-empty').waitFor();
  });

  it('deletes a token after confirmation', async () => {
    const [token] = await tokensNamed('bulk-12');
    const id = token?.id ?? 0;
    await page.goto(`${server.origin}/panel/token?keyword=bulk-12`);
    await page.getByTestId(`token-delete-${id}`).click();
    await page.getByTestId('token-delete-dialog').waitFor();
    await page.getByTestId('token-delete-confirm').click();
    await page.getByTestId('token-empty').waitFor();
    expect(await tokensNamed('bulk-12')).toEqual([]);
  });

  it('takes screenshots in light, dark, Chinese and on a phone', async () => {
    await screenshotLooks('/panel/token', 'token', 'tokens');
  });
});
