/// <reference lib="dom" />
/**
 * Issue 16 item 4: a few cheap calls cost well under a cent, and the console must show that
 * amount (not "$0.00") in its cards, log header and chart axes, with axis labels that fit.
 */
import { formatMoney } from '@one-hub/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Auth,
  apiSignIn,
  call,
  openPage,
  ROOT_PASSWORD,
  root,
  self,
  server,
  settledScreenshot,
  signIn,
  TINY_PROMPT,
  USERS,
  useAccountSite,
} from './support/account-site.js';
import { text } from './support/browser.js';

useAccountSite();

const QUOTA_PER_DOLLAR = 500_000;
/** Calls per model: one model gets a single request, so its row reads "1 request". */
const CALLS = { 'gpt-4o-mini': 3, 'gpt-4o': 1 } as const;
const money = (quota: number) => formatMoney(quota / QUOTA_PER_DOLLAR);

/** Small relayed calls for Erin, then waits until the statistics roll-up has them. */
async function generateTinyUsage(erin: Auth): Promise<void> {
  const users = await call<{ data: Array<{ id: number; username: string }> }>('GET', '/api/user/?keyword=erin', root);
  const id = users.data.find((user) => user.username === USERS.erin.username)?.id;
  await call('POST', `/api/user/quota/${id}`, root, { quota: QUOTA_PER_DOLLAR });
  const token = await call<{ key: string }>('POST', '/api/token/', erin, {
    name: 'tiny usage',
    remain_quota: 0,
    unlimited_quota: true,
  });
  const key = token.key.startsWith('sk-') ? token.key : `sk-${token.key}`;
  for (const [model, calls] of Object.entries(CALLS)) {
    for (let attempt = 0; attempt < calls; attempt++) {
      const response = await fetch(`${server.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: TINY_PROMPT }] }),
      });
      expect(response.status).toBe(200);
    }
  }
  const expected = Object.values(CALLS).reduce((sum, calls) => sum + calls, 0);
  // The log writer batches rows for about a second before the roll-up has them.
  for (let attempt = 0; attempt < 75; attempt++) {
    const rows = await call<Array<{ RequestCount: number }> | null>('GET', '/api/user/dashboard', erin);
    if ((rows ?? []).reduce((sum, row) => sum + row.RequestCount, 0) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the relayed requests never reached the dashboard statistics');
}

/** Every tick label of the chart's value axis lies inside the chart's own svg (nothing clipped). */
async function clippedTicks(page: Page, chartTestId: string): Promise<string[]> {
  const chart = page.getByTestId(chartTestId);
  await chart.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').first().waitFor();
  return chart.evaluate((element) => {
    const svg = element.querySelector('svg.recharts-surface');
    if (!svg) return ['no chart'];
    const frame = svg.getBoundingClientRect();
    const ticks = Array.from(
      element.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value'),
    );
    return ticks
      .filter((tick) => {
        const box = tick.getBoundingClientRect();
        return box.left < frame.left || box.right > frame.right;
      })
      .map((tick) => tick.textContent ?? '');
  });
}

const tickLabels = (page: Page, chartTestId: string) =>
  page
    .getByTestId(chartTestId)
    .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
    .allTextContents();

describe('money under a cent', () => {
  let erin: Auth;
  let spent: string;

  beforeAll(async () => {
    erin = await apiSignIn(USERS.erin.username, USERS.erin.password);
    await generateTinyUsage(erin);
    const account = await self(erin);
    spent = money(account.used_quota);
  });

  it('shows the digits of a sub-cent total on the dashboard, with unclipped axes', async () => {
    expect(spent).toMatch(/^\$0\.00\d*[1-9]/);
    const page = await openPage();
    await signIn(page, USERS.erin.username, USERS.erin.password);
    await page.getByTestId('dashboard-trend-chart').waitFor();

    expect(await text(page, 'dashboard-period-quota')).toBe(spent);
    expect(await text(page, 'user-used-quota')).toBe(spent);
    expect(await clippedTicks(page, 'dashboard-trend-chart')).toEqual([]);
    // The ticks of a sub-cent axis are told apart, not all "$0.00".
    const ticks = (await tickLabels(page, 'dashboard-trend-chart')).filter((label) => label !== '$0.00');
    expect(ticks.length).toBeGreaterThan(0);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(await clippedTicks(page, 'dashboard-models')).toEqual([]);
    expect(await text(page, 'dashboard-model-gpt-4o')).toContain('1 request ·');
    expect(await text(page, 'dashboard-model-gpt-4o-mini')).toContain('3 requests ·');
    await settledScreenshot(page, 'money-dashboard');

    const dark = await openPage({ dark: true, language: 'zh_CN' });
    await signIn(dark, USERS.erin.username, USERS.erin.password);
    await dark.getByTestId('dashboard-trend-chart').waitFor();
    expect(await text(dark, 'dashboard-period-quota')).toBe(spent);
    expect(await clippedTicks(dark, 'dashboard-trend-chart')).toEqual([]);
    expect(await text(dark, 'dashboard-model-gpt-4o')).toContain('1 次请求');
    await settledScreenshot(dark, 'money-dashboard-dark-zh_CN');
  });

  it('shows the sub-cent total in the Logs header and each row its own cost', async () => {
    const page = await openPage();
    await signIn(page, USERS.erin.username, USERS.erin.password);
    await page.goto(`${server.origin}/panel/log`);
    await expect.poll(() => text(page, 'log-stat-quota')).toBe(spent);
    await expect.poll(() => page.locator('[data-testid^=log-quota-]').count()).toBeGreaterThanOrEqual(4);
    for (const cell of await page.locator('[data-testid^=log-quota-]').allTextContents()) {
      expect(cell).not.toBe('$0.00');
    }
    await settledScreenshot(page, 'money-logs');
  });

  it('labels the analytics axes without clipping', async () => {
    const page = await openPage();
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto(`${server.origin}/panel/analytics`);
    await expect.poll(() => text(page, 'analytics-period-quota')).toBe(spent);
    expect(await clippedTicks(page, 'analytics-trend-chart')).toEqual([]);
    expect(await clippedTicks(page, 'analytics-breakdown')).toEqual([]);
    await settledScreenshot(page, 'money-analytics');
  });
});
