/// <reference lib="dom" />
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type PageOpener, pageOpener, phone } from './support/pages.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_TOKEN = 'e2e-root-access-token-invoices-01';
const USER = { username: 'ivy', password: 'ivy-password-1' };

/** The first day of the month `months` before this one, in local time (the statistics' days are local). */
function monthBefore(months: number): string {
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth() - months, 1);
  return `${first.getFullYear()}-${String(first.getMonth() + 1).padStart(2, '0')}-01`;
}

let server: RunningServer;
let browser: Browser;
let admin: AdminApi;
let pages: PageOpener;
const lastMonth = monthBefore(1);

beforeAll(async () => {
  server = await startServer({ INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
  admin = adminApi(server.origin, ROOT_TOKEN);
  await admin.createUser(USER);
  const users = await apiCall<{ data: Array<{ id: number; username: string }> }>(
    server.origin,
    'GET',
    '/api/user/?keyword=ivy',
    { token: ROOT_TOKEN },
  );
  const ivy = users.data.find((user) => user.username === USER.username);
  if (!ivy) throw new Error('the user was not created');
  // Last month's usage, as the daily roll-up would have kept it: it can only be had by having been there.
  const database = new Database(join(server.dataDirectory, 'one-hub.db'));
  const insert = database.prepare(
    'insert into statistics (date, user_id, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time) values (?, ?, 1, ?, ?, ?, ?, ?, ?)',
  );
  insert.run(`${lastMonth.slice(0, 8)}03`, ivy.id, 'gpt-4o', 12, 1_500_000, 12_000, 4_000, 9_000);
  insert.run(`${lastMonth.slice(0, 8)}20`, ivy.id, 'gpt-4o', 8, 1_000_000, 8_000, 2_000, 6_000);
  insert.run(`${lastMonth.slice(0, 8)}21`, ivy.id, 'claude-sonnet-4-6', 3, 750_000, 3_000, 900, 3_000);
  database.close();
  await admin.setOption('UserInvoiceMonth', 'true');
  await apiCall(server.origin, 'POST', `/api/option/invoice/gen/${lastMonth}`, { token: ROOT_TOKEN }, {});
  browser = await launchBrowser();
  pages = pageOpener(() => browser);
}, 60_000);
afterAll(async () => {
  await pages?.closeAll();
  await browser?.close();
  await server?.stop();
});

describe('monthly invoices', () => {
  it("lists the user's months from the menu and opens a month's lines per model", async () => {
    const page = await pages.open();
    await signInWithForm(page, server.origin, USER.username, USER.password);
    await page.getByTestId('menu-invoice').click();
    await page.waitForURL('**/panel/invoice');
    const row = page.getByTestId(`invoice-row-${lastMonth}`);
    await row.waitFor();
    // 3,250,000 quota at 500,000 a dollar.
    expect(await page.getByTestId(`invoice-quota-${lastMonth}`).textContent()).toBe('$6.50');
    expect(await row.textContent()).toContain('23');
    await screenshot(page, 'invoices-list');

    await page.getByTestId(`invoice-detail-${lastMonth}`).click();
    await page.waitForURL(`**/panel/invoice/detail/${lastMonth}`);
    await page.getByTestId('invoice-line-gpt-4o').waitFor();
    expect(await page.getByTestId('invoice-line-gpt-4o').textContent()).toContain('$5.00');
    expect(await page.getByTestId('invoice-line-claude-sonnet-4-6').textContent()).toContain('$1.50');
    expect(await page.getByTestId('invoice-total-quota').textContent()).toBe('$6.50');
    await screenshot(page, 'invoices-detail');
  });

  it('looks right in the dark theme, in Chinese and at 400 px', async () => {
    const page = await pages.open({ dark: true, language: 'zh_CN', viewport: phone });
    await signInWithForm(page, server.origin, USER.username, USER.password);
    await page.goto(`${server.origin}/panel/invoice`);
    await page.getByTestId(`invoice-row-${lastMonth}`).waitFor();
    expect(await page.locator('h1').first().textContent()).toBe('账单');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'invoices-list-dark-zh_CN-phone');
  });

  it('disappears from the menu when the setting is turned off', async () => {
    await admin.setOption('UserInvoiceMonth', 'false');
    const page = await pages.open();
    await signInWithForm(page, server.origin, USER.username, USER.password);
    await page.getByTestId('menu-log').waitFor();
    expect(await page.getByTestId('menu-invoice').count()).toBe(0);
    await admin.setOption('UserInvoiceMonth', 'true');
  });
});
