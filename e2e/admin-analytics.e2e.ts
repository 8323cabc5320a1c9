/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatQuota } from '@one-hub/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall, sessionCookie, settle } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-analytics-01';
const ALICE = { username: 'alice', password: 'alice-password-1', display_name: 'Alice A.' };
const BOB = { username: 'bob', password: 'bob-password-1', display_name: 'Bob B.' };
const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 860 };
/** Token counts the mock reports, per model, so each user's sums differ. */
const USAGE: Record<string, { prompt_tokens: number; completion_tokens: number }> = {
  'mock-gpt': { prompt_tokens: 120, completion_tokens: 40 },
  'mock-claude': { prompt_tokens: 300, completion_tokens: 90 },
};
/** Who sends what through /v1/chat/completions. */
const TRAFFIC: Array<[user: 'alice' | 'bob', model: string]> = [
  ['alice', 'mock-gpt'],
  ['alice', 'mock-gpt'],
  ['alice', 'mock-gpt'],
  ['alice', 'mock-claude'],
  ['bob', 'mock-gpt'],
  ['bob', 'mock-gpt'],
];
const REDEEMED_QUOTA = 2_500_000;
const CSV_HEADER = 'Username,Request Count,Quota,Prompt Tokens,Completion Tokens,Request Time (ms)';

let server: RunningServer;
let upstream: Server;
let browser: Browser;
let admin: AdminApi;

interface LogRow {
  username: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}
interface UserSums {
  requests: number;
  quota: number;
  prompt: number;
  completion: number;
  time: number;
}
/** Each user's sums, from the consume logs the relay wrote (the roll-up must agree with them). */
const sums: Record<string, UserSums> = {};

const rootCall = <T>(method: string, path: string, body?: unknown) =>
  apiCall<T>(server.origin, method, path, { token: ROOT_TOKEN }, body);

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
}

/** An OpenAI-style upstream on loopback answering every chat request at once, with usage. */
async function startUpstream(): Promise<Server> {
  const mock = createServer((request, response) => {
    void readJson(request).then((body) => {
      const model = String(body.model);
      const usage = USAGE[model] ?? { prompt_tokens: 1, completion_tokens: 1 };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-analytics',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' }],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  return mock;
}

async function userId(username: string): Promise<number> {
  const users = await rootCall<{ data: Array<{ id: number; username: string }> }>(
    'GET',
    `/api/user/?keyword=${username}`,
  );
  const found = users.data.find((user) => user.username === username);
  if (!found) throw new Error(`user ${username} was not created`);
  return found.id;
}

async function chat(key: string, model: string): Promise<void> {
  const response = await fetch(`${server.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  await response.text();
}

async function seed(): Promise<void> {
  const { port } = upstream.address() as AddressInfo;
  await rootCall('POST', '/api/prices/single', {
    model: 'mock-gpt',
    type: 'tokens',
    channel_type: 1,
    input: 150,
    output: 450,
  });
  await rootCall('POST', '/api/prices/single', {
    ...{ model: 'mock-claude', type: 'tokens', channel_type: 14, input: 400, output: 1200 },
  });
  await rootCall('POST', '/api/channel/', {
    name: 'mock-channel',
    type: 1,
    key: 'sk-upstream',
    base_url: `http://127.0.0.1:${port}`,
    models: 'mock-gpt,mock-claude',
    group: 'default',
  });
  const keys: Record<string, string> = {};
  for (const user of [ALICE, BOB]) {
    await admin.createUser(user);
    await admin.addQuota(await userId(user.username), 50_000_000);
    const session = await sessionCookie(server.origin, user.username, user.password);
    const token = await apiCall<{ key: string }>(
      server.origin,
      'POST',
      '/api/token/',
      { cookie: session },
      {
        ...{ name: `${user.username}-app`, remain_quota: 0, expired_time: -1, unlimited_quota: true },
      },
    );
    keys[user.username] = token.key;
  }
  for (const [user, model] of TRAFFIC) await chat(keys[user] ?? '', model);

  // Bob redeems one code, so the top-ups chart has a day to show.
  const [code] = await rootCall<string[]>('POST', '/api/redemption/', { name: 'e2e', quota: REDEEMED_QUOTA, count: 1 });
  const bobSession = await sessionCookie(server.origin, BOB.username, BOB.password);
  await apiCall(server.origin, 'POST', '/api/user/topup', { cookie: bobSession }, { key: code });

  // Logs, the roll-up and quota settle in batches: wait until each holds every request.
  const logs = await settle(
    async () => (await rootCall<{ data: LogRow[] }>('GET', '/api/log/?log_type=2&size=100')).data,
    (rows) => rows.length === TRAFFIC.length,
  );
  for (const row of logs) {
    const entry = sums[row.username] ?? { requests: 0, quota: 0, prompt: 0, completion: 0, time: 0 };
    entry.requests += 1;
    entry.quota += row.quota;
    entry.prompt += row.prompt_tokens;
    entry.completion += row.completion_tokens;
    entry.time += row.request_time;
    sums[row.username] = entry;
  }
  const used = Object.values(sums).reduce((total, entry) => total + entry.quota, 0);
  await settle(
    () => rootCall<{ user_statistics: { total_used_quota: number } }>('GET', '/api/analytics/statistics'),
    (summary) => summary.user_statistics.total_used_quota === used,
  );
  const now = Math.floor(Date.now() / 1000);
  await settle(
    () =>
      rootCall<{ total_request_count: number }>(
        'GET',
        `/api/analytics/top_users?start_timestamp=${now - 86_400}&end_timestamp=${now + 86_400}`,
      ),
    (top) => top.total_request_count === TRAFFIC.length,
  );
}

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    CRITICAL_RATE_LIMIT: '1000',
  });
  admin = adminApi(server.origin, ROOT_TOKEN);
  await seed();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

// ---- browser helpers ----

async function rootPage(options: { theme?: string; viewport?: typeof desktop } = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: options.viewport ?? desktop,
    acceptDownloads: true,
    locale: 'en-US',
  });
  await page.addInitScript((theme) => {
    if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', 'en_US');
    if (theme) window.localStorage.setItem('theme', theme);
  }, options.theme ?? '');
  await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
  return page;
}

/** Full-page screenshots are taken from the top, so the fixed app bar stays where it belongs. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
const money = (quota: number) => formatQuota(quota, { quotaPerUnit: 500_000, displayInCurrency: true });
const localDay = (moment: Date) =>
  `${moment.getFullYear()}-${String(moment.getMonth() + 1).padStart(2, '0')}-${String(moment.getDate()).padStart(2, '0')}`;
const today = localDay(new Date());

describe('analytics overview', () => {
  let page: Page;
  beforeAll(async () => {
    page = await rootPage();
  });
  afterAll(async () => {
    await page.close();
  });

  it('shows the site totals in the summary cards', async () => {
    await page.goto(`${server.origin}/panel/analytics`);
    await page.getByTestId('analytics-card-users').waitFor();
    expect(await text(page, 'analytics-card-users')).toBe('3');
    expect(await text(page, 'analytics-card-channels')).toBe('1');
    expect(await text(page, 'analytics-channels-status-1')).toContain('1');
    const usedQuota = Object.values(sums).reduce((total, entry) => total + entry.quota, 0);
    expect(await text(page, 'analytics-card-used-quota')).toBe(money(usedQuota));
    expect(await text(page, 'analytics-card-redemptions-redeemed')).toContain(money(REDEEMED_QUOTA));
  });

  it('draws the period: totals, the breakdown by model, channel and owner, sign-ups and top-ups', async () => {
    await page.getByTestId('analytics-trend-chart').waitFor();
    expect(await text(page, 'analytics-period-requests')).toBe(String(TRAFFIC.length));
    const tokens = Object.values(sums).reduce((total, entry) => total + entry.prompt + entry.completion, 0);
    expect(await text(page, 'analytics-period-tokens')).toBe(tokens.toLocaleString('en-US'));
    expect(await page.locator('[data-testid=analytics-trend-chart] svg path').count()).toBeGreaterThan(0);

    await page.getByTestId('analytics-breakdown-metric-requests').click();
    await expect.poll(() => text(page, 'analytics-breakdown-value-mock-gpt')).toBe('5');
    expect(await text(page, 'analytics-breakdown-value-mock-claude')).toBe('1');
    await page.getByTestId('analytics-breakdown-group-model_type').click();
    await expect.poll(() => text(page, 'analytics-breakdown-value-OpenAI')).toBe('5');
    expect(await text(page, 'analytics-breakdown-value-Anthropic')).toBe('1');
    await page.getByTestId('analytics-breakdown-group-channel').click();
    await expect.poll(() => text(page, 'analytics-breakdown-value-mock-channel')).toBe('6');

    // root, alice and bob all signed up today.
    expect(await text(page, 'analytics-new-users-total')).toBe('3');
    expect(await text(page, 'analytics-topups-redeemed')).toBe(money(REDEEMED_QUOTA));
    await page.getByTestId('analytics-breakdown-group-model').click();
    await page.getByTestId('analytics-breakdown-item-mock-gpt').waitFor();
    await shoot(page, 'admin-analytics-overview');
  });

  it('changes the period with the presets and a custom range, with empty states for quiet days', async () => {
    await page.getByTestId('analytics-period-today').click();
    await page.waitForURL(/period=today/);
    await expect.poll(() => text(page, 'analytics-period-range')).toBe(today);
    await expect.poll(() => text(page, 'analytics-period-requests')).toBe(String(TRAFFIC.length));

    await page.getByTestId('analytics-period-custom').click();
    await page.getByTestId('analytics-period-from').fill('2020-01-31');
    await page.getByTestId('analytics-period-to').fill('2020-01-01');
    await page.getByTestId('analytics-period-apply').click();
    expect(await page.locator('[data-testid=analytics-period-custom] .Mui-error.MuiFormHelperText-root').count()).toBe(
      1,
    );
    expect(page.url()).toContain('period=today');

    await page.getByTestId('analytics-period-from').fill('2020-01-01');
    await page.getByTestId('analytics-period-to').fill('2020-01-31');
    await page.getByTestId('analytics-period-apply').click();
    await page.waitForURL(/period=custom&from=2020-01-01&to=2020-01-31/);
    await page.getByTestId('analytics-trend-empty').waitFor();
    await page.getByTestId('analytics-breakdown-empty').waitFor();
    await page.getByTestId('analytics-new-users-empty').waitFor();
    await page.getByTestId('analytics-topups-empty').waitFor();
    expect(await text(page, 'analytics-period-requests')).toBe('0');

    await page.getByTestId('analytics-period-30d').click();
    await page.waitForURL(/period=30d/);
    await expect.poll(() => text(page, 'analytics-period-requests')).toBe(String(TRAFFIC.length));
  });
});

describe('analytics by user', () => {
  let page: Page;
  beforeAll(async () => {
    page = await rootPage();
  });
  afterAll(async () => {
    await page.close();
  });

  it('ranks the top users of the period by quota and by requests', async () => {
    await page.goto(`${server.origin}/panel/analytics?tab=users`);
    await page.getByTestId('analytics-top-user-alice').waitFor();
    const names = () =>
      page.locator('[data-testid=analytics-top-users] [data-testid=analytics-top-user-name]').allTextContents();
    const byQuota = Object.entries(sums)
      .sort(([, left], [, right]) => right.quota - left.quota)
      .map(([name]) => name);
    expect(await names()).toEqual(byQuota);
    const alice = page.getByTestId('analytics-top-user-alice');
    expect(await alice.getByTestId('analytics-top-user-quota').textContent()).toBe(money(sums.alice?.quota ?? -1));

    await page.getByTestId('analytics-top-order-request_count').click();
    await expect.poll(names).toEqual(['alice', 'bob']);
    expect(await alice.getByTestId('analytics-top-user-requests').textContent()).toBe('4');
    expect(
      await page.getByTestId('analytics-top-user-bob').getByTestId('analytics-top-user-requests').textContent(),
    ).toBe('2');

    // The table as shown (ranked by requests) saved as CSV: integer quota, the API's names.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('analytics-top-users-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^top-users_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}-\d{8}-\d{6}\.csv$/);
    const lines = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'rank,user_id,username,display_name,request_count,quota,prompt_tokens,completion_tokens,request_time',
    );
    const cells = lines.slice(1, -1).map((line) => line.split(','));
    expect(cells.map((line) => [line[0], line[2], line[4], line[5]])).toEqual(
      ['alice', 'bob'].map((name, index) => [
        String(index + 1),
        name,
        String(sums[name]?.requests),
        String(sums[name]?.quota),
      ]),
    );
    expect(lines.at(-1)).toBe('');
  });

  it('compares users, reports unknown names and downloads the CSV', async () => {
    await page.getByTestId('analytics-compare-submit').click();
    expect(await page.locator('[data-testid=analytics-compare-form] .Mui-error.MuiFormHelperText-root').count()).toBe(
      1,
    );

    await page.getByTestId('analytics-top-user-alice').getByTestId('analytics-top-user-compare').click();
    await page.getByTestId('analytics-compare-chip-alice').waitFor();
    await page.getByTestId('analytics-compare-usernames').fill('bob, ghost');
    await page.getByTestId('analytics-compare-chip-bob').waitFor();
    await page.getByTestId('analytics-compare-submit').click();

    const aliceRow = page.getByTestId('analytics-compare-row-alice');
    await aliceRow.waitFor();
    expect(await aliceRow.getByTestId('analytics-compare-requests').textContent()).toBe('4');
    expect(await aliceRow.getByTestId('analytics-compare-quota').textContent()).toBe(money(sums.alice?.quota ?? -1));
    expect(
      await page.getByTestId('analytics-compare-row-bob').getByTestId('analytics-compare-requests').textContent(),
    ).toBe('2');
    expect(await text(page, 'analytics-compare-missing')).toContain('ghost');
    expect(await page.getByTestId('analytics-compare-row-ghost').count()).toBe(0);
    await shoot(page, 'admin-analytics-by-user');

    const from = await page.getByTestId('analytics-compare-start').inputValue();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('analytics-compare-export').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`multi_user_stats_${from}_${today}.csv`);
    const csv = await readFile(await download.path(), 'utf8');
    const line = (name: string) => {
      const entry = sums[name];
      return [name, entry?.requests, entry?.quota, entry?.prompt, entry?.completion, entry?.time].join(',');
    };
    expect(csv.split(/\r?\n/)).toEqual([CSV_HEADER, line('alice'), line('bob'), '']);
  });
});

describe('analytics on a phone in dark mode', () => {
  it('fits the narrow screen', async () => {
    const page = await rootPage({ theme: 'dark', viewport: phone });
    await page.goto(`${server.origin}/panel/analytics`);
    await page.getByTestId('analytics-trend-chart').waitFor();
    await page.getByTestId('analytics-breakdown-item-mock-gpt').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await shoot(page, 'admin-analytics-phone-dark');
    await page.close();
  });
});
