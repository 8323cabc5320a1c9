/// <reference lib="dom" />
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from './support/api.js';
import { exactQuota, exportFrom, screenshot, text } from './support/browser.js';
import {
  BOB,
  call,
  createToken,
  ROOT_TOKEN,
  rowIds,
  screenshotLooks,
  server,
  signedInPage,
  useTokensLogsSite,
} from './support/tokens-logs-site.js';

// The Logs screen: a user's own requests, everyone's for an administrator, export and clean-up.
useTokensLogsSite();

interface LogRow {
  id: number;
  type: number;
  model_name: string;
  quota: number;
  username: string;
  created_at: number;
}

const sessionOf = (username: string, password: string) => sessionCookie(server.origin, username, password);

async function relay(key: string, model: string, stream = false): Promise<void> {
  const response = await fetch(`${server.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Say hello' }] }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  await response.text();
}

/** Consume logs are written in batches: wait until the API lists `count` of them. */
async function consumeLogs(path: string, auth: string, count: number): Promise<LogRow[]> {
  let rows: LogRow[] = [];
  await expect
    .poll(
      async () => {
        rows = (await call<{ data: LogRow[] }>('GET', `${path}?log_type=2&size=100`, undefined, auth)).data;
        return rows.length;
      },
      { timeout: 10_000 },
    )
    .toBe(count);
  return rows;
}

describe('logs', () => {
  let bobSession: string;
  let bobKey: string;

  beforeAll(async () => {
    bobSession = await sessionOf(BOB.username, BOB.password);
    bobKey = (await createToken('bob-app', { unlimited_quota: true }, bobSession)).key;
    await relay(bobKey, 'gpt-4o-mini');
    await relay(bobKey, 'gpt-4o-mini');
    await relay(bobKey, 'gpt-4o', true);
    const rootKey = (await createToken('root-app', { unlimited_quota: true })).key;
    await relay(rootKey, 'gpt-4o-mini');
  });

  it('show a user their own requests with model, tokens, cost and the total', async () => {
    const logs = await consumeLogs('/api/log/self', bobSession, 3);
    const page = await signedInPage(BOB);
    await page.goto(`${server.origin}/panel/log`);
    for (const log of logs) {
      await page.getByTestId(`log-row-${log.id}`).waitFor();
      expect(await text(page, `log-model-${log.id}`)).toBe(log.model_name);
      expect(await text(page, `log-token-${log.id}`)).toBe('bob-app');
      expect(await text(page, `log-input-${log.id}`)).toBe('120');
      expect(await text(page, `log-output-${log.id}`)).toBe('48');
      expect(await exactQuota(page, `log-quota-${log.id}`)).toBe(log.quota);
      expect(log.quota).toBeGreaterThan(0);
    }
    const total = logs.reduce((sum, log) => sum + log.quota, 0);
    await expect.poll(() => exactQuota(page, 'log-stat-quota')).toBe(total);
    expect(await page.locator('[data-testid^=log-user-]').count()).toBe(0);
    expect(await page.getByTestId('log-cleanup').count()).toBe(0);

    const streamed = logs.find((log) => log.model_name === 'gpt-4o');
    expect(await page.getByTestId(`log-stream-${streamed?.id}`).count()).toBe(1);
    expect(await text(page, `log-speed-${streamed?.id}`)).toMatch(/t\/s$/);
    await page.getByTestId(`log-input-${streamed?.id}`).click();
    const breakdown = page.getByTestId('log-breakdown');
    await breakdown.waitFor();
    await expect.poll(() => text(page, 'log-breakdown-cached_tokens')).toContain('64');
    await expect.poll(() => text(page, 'log-breakdown-reasoning_tokens')).toContain('16');
    await screenshot(page, 'logs-breakdown');
    await page.keyboard.press('Escape');

    await page.getByTestId('log-filter-model').fill('gpt-4o');
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL(/model_name=gpt-4o(&|$)/);
    await expect.poll(() => rowIds(page, 'log')).toEqual([streamed?.id]);
    await expect.poll(() => exactQuota(page, 'log-stat-quota')).toBe(streamed?.quota);
    // The export has exactly the filtered rows: a header, then the one gpt-4o request.
    const exported = await exportFrom(page, 'log-export', 'csv');
    expect(exported.name).toMatch(/^logs-\d{8}-\d{6}\.csv$/);
    const lines = exported.content.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^id,created_at,type,user_id,username,/);
    expect(
      lines.slice(1).map((line) =>
        line
          .split(',')
          .slice(0, 1)
          .concat(line.split(',')[7] ?? ''),
      ),
    ).toEqual([[String(streamed?.id), 'gpt-4o']]);
    await page.reload();
    expect(await page.getByTestId('log-filter-model').inputValue()).toBe('gpt-4o');
    await page.close();
  });

  it('let an administrator filter everyone’s logs by username', async () => {
    await consumeLogs('/api/log/', ROOT_TOKEN, 4);
    const page = await signedInPage();
    await page.goto(`${server.origin}/panel/log?log_type=2`);
    await expect.poll(() => rowIds(page, 'log').then((ids) => ids.length)).toBe(4);
    await page.getByTestId('log-filter-username').fill(BOB.username);
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL(/username=bob/);
    await expect.poll(() => rowIds(page, 'log').then((ids) => ids.length)).toBe(3);
    const users = await page.locator('[data-testid^=log-user-]').allTextContents();
    expect(new Set(users)).toEqual(new Set([BOB.username]));
    expect(page.url()).toContain('log_type=2');
    // The export follows the filters on screen: bob's three consume logs, in the list's order.
    const exported = await exportFrom(page, 'log-export', 'jsonl');
    expect(exported.name).toMatch(/^logs-\d{8}-\d{6}\.jsonl$/);
    const rows = exported.content
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LogRow);
    expect(rows.map((row) => row.id)).toEqual(await rowIds(page, 'log'));
    expect(rows.every((row) => row.username === BOB.username && row.type === 2)).toBe(true);
    await page.close();
  });

  it('take screenshots in light, dark, Chinese and on a phone', async () => {
    await screenshotLooks('/panel/log', 'log', 'logs', async (page, look) => {
      if (look !== 'phone') return;
      await page.getByTestId('log-filter-toggle').click();
      // The filters slide open; the capture waits for the end of the slide.
      await page.getByTestId('log-filters').locator('.MuiCollapse-entered').waitFor();
      await screenshot(page, 'logs-phone-filters');
    });
  });

  it('let an administrator clean up consume logs and say how many went', async () => {
    const before = await consumeLogs('/api/log/', ROOT_TOKEN, 4);
    // "Now" removes the logs made before the current second: wait until the newest one's has passed.
    const newest = Math.max(...before.map((log) => log.created_at));
    await expect.poll(() => Math.floor(Date.now() / 1000)).toBeGreaterThan(newest);
    const page = await signedInPage();
    await page.goto(`${server.origin}/panel/log`);
    await page.getByTestId('log-cleanup').click();
    await page.getByTestId('log-cleanup-dialog').waitFor();
    await page.getByTestId('log-cleanup-preset-now').click();
    await page.getByTestId('log-cleanup-confirm').click();
    const result = page.getByTestId('log-cleanup-result');
    await result.waitFor();
    expect(Number(await result.getAttribute('data-count'))).toBe(before.length);
    await screenshot(page, 'logs-cleanup');
    await page.getByTestId('log-cleanup-close').click();
    await page.goto(`${server.origin}/panel/log?log_type=2`);
    await page.getByTestId('log-empty').waitFor();
    expect(await consumeLogs('/api/log/', ROOT_TOKEN, 0)).toEqual([]);
    await page.close();
  });
});
