import type { BudgetWindowView } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../../test/databases.js';
import { type RelayTestContext, startRelayTest, startSecondNode, storedQuota } from '../../../../test/relay-setup.js';
import { windowAt } from '../../../domain/budget-windows.js';

/**
 * Budgets per window and TPM through the HTTP API (issue 33), on every database: refusals before
 * the upstream with 429 budget_exceeded, a message naming the window and its reset, Retry-After;
 * exact spend; group windows per member; windows that survive a restart; the views' current use.
 */
const PROMPT = 'Hello';
// The mock answers with this usage; gpt-4o-mini is priced 1 in, 2 out in startRelayTest.
const USAGE = { prompt_tokens: 10, completion_tokens: 6 };
const COST = USAGE.prompt_tokens * 1 + USAGE.completion_tokens * 2;
const chat = {
  model: 'gpt-4o-mini',
  max_tokens: USAGE.completion_tokens,
  messages: [{ role: 'user', content: PROMPT }],
};

interface ErrorBody {
  error: { message: string; code: string; type: string };
}

describe.each(availableDialects)('budgets per window on %s', (dialect) => {
  let r: RelayTestContext;
  let cookie: string;

  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    cookie = await r.t.login('relayuser', 'password-123');
    r.upstream.behaviour.usage = USAGE;
  });
  afterAll(() => r?.close());

  const post = (key: string, body: object = chat, base = r.baseURL) =>
    fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const upstreamCalls = () => r.upstream.received.filter((request) => request.path === '/v1/chat/completions').length;
  const keyId = async (key: string) => {
    const list = await r.t.app.inject({ method: 'GET', url: '/api/token/?size=100', headers: { cookie } });
    const rows = (list.json() as { data: { data: Array<{ id: number; key: string }> } }).data.data;
    return (rows.find((row) => key.endsWith(row.key)) as { id: number }).id;
  };
  const expectRefusal = async (response: Response, text: string) => {
    expect(response.status).toBe(429);
    const seconds = Number(response.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code).toBe('budget_exceeded');
    expect(body.error.message).toContain(text);
    const resets = /resets at (\S+)/.exec(body.error.message)?.[1] ?? '';
    // The reset the message names is when Retry-After points (to the second).
    expect(Math.abs(Date.parse(resets) - (Date.now() + seconds * 1000))).toBeLessThan(5000);
  };

  it('refuses the request beyond a key’s daily requests before the upstream, naming the window', async () => {
    const key = await r.newKey(cookie, { setting: { budgets: [{ period: 'day', requests: 2 }] } });
    expect((await post(key)).status).toBe(200);
    expect((await post(key)).status).toBe(200);
    const before = upstreamCalls();
    await expectRefusal(await post(key), 'daily requests budget of this API key (2 requests)');
    expect(upstreamCalls()).toBe(before);

    const view = await r.t.app.inject({ method: 'GET', url: `/api/token/${await keyId(key)}`, headers: { cookie } });
    const windows = (view.json() as { data: { budget_windows: BudgetWindowView[] } }).data.budget_windows;
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({ scope: 'key', period: 'day', requests: 2, used_requests: 2 });
    expect(windows[0]?.used_quota).toBe(2 * COST);
    expect(windows[0]?.used_tokens).toBe(2 * (USAGE.prompt_tokens + USAGE.completion_tokens));
    expect((windows[0]?.resets_at ?? 0) - (windows[0]?.started_at ?? 0)).toBe(86_400);
  });

  it('holds a user to its money budget and charges the balance exactly what the window counted', async () => {
    const { id, cookie: ownCookie } = await r.t.createUser(`spender${dialect.slice(0, 3)}`);
    expect((await r.admin('POST', `/api/user/quota/${id}`, { quota: 100 * COST })).status).toBe(200);
    // Room for two requests and half of a third.
    const budgets = [{ period: 'week', quota: 2 * COST + COST / 2 }];
    const updated = await r.admin('PUT', '/api/user/', { id, budgets });
    expect(updated.status).toBe(200);
    expect((updated.body.data as { budgets: unknown }).budgets).toEqual(budgets);
    const key = await r.newKey(ownCookie);
    expect((await post(key)).status).toBe(200);
    expect((await post(key)).status).toBe(200);
    await expectRefusal(await post(key), 'weekly spending budget of your account');
    expect(await storedQuota(r, id)).toBe(100 * COST - 2 * COST);

    const view = await r.admin('GET', `/api/user/${id}`);
    const windows = (view.body.data as { budget_windows: BudgetWindowView[] }).budget_windows;
    expect(windows).toEqual([expect.objectContaining({ scope: 'user', period: 'week', used_quota: 2 * COST })]);
    // The user sees the same window on their own plan page.
    const own = await r.t.app.inject({ method: 'GET', url: '/api/user/plan', headers: { cookie: ownCookie } });
    expect((own.json() as { data: { windows: BudgetWindowView[] } }).data.windows).toEqual(windows);
  });

  it('applies a group’s window to each member on its own', async () => {
    const group = `capped${dialect.slice(0, 2)}`;
    const created = await r.admin('POST', '/api/user_group/', {
      symbol: group,
      name: group,
      budgets: [{ period: '5h', requests: 1 }],
    });
    expect(created.status).toBe(200);
    await r.addChannel({ group });
    for (const name of ['memberone', 'membertwo']) {
      const { id, cookie: own } = await r.t.createUser(`${name}${dialect.slice(0, 2)}`);
      expect((await r.admin('POST', `/api/user/quota/${id}`, { quota: 100 * COST })).status).toBe(200);
      expect((await r.admin('PUT', '/api/user/', { id, group })).status).toBe(200);
      const key = await r.newKey(own);
      expect((await post(key)).status).toBe(200);
      await expectRefusal(await post(key), "5-hour requests budget of your user group's");
      const view = await r.admin('GET', `/api/user/${id}`);
      const windows = (view.body.data as { budget_windows: BudgetWindowView[] }).budget_windows;
      expect(windows).toEqual([expect.objectContaining({ scope: 'group', period: '5h', used_requests: 1 })]);
    }
  });

  it('limits a key’s tokens per minute: the prompt counted before the call, the real usage after', async () => {
    // 16 tokens a request (10 prompt + 6 answer): a second one in the same minute would pass 20.
    for (let attempt = 0; attempt < 3; attempt++) {
      const key = await r.newKey(cookie, { setting: { limits: { tpm: 20 } } });
      const minute = Math.floor(Date.now() / 60_000);
      const first = await post(key);
      const second = await post(key);
      // A minute that turned between the two is a new window: try again within one minute.
      if (Math.floor(Date.now() / 60_000) !== minute) continue;
      expect(first.status).toBe(200);
      await expectRefusal(second, 'tokens-per-minute limit of this API key (20 tokens)');
      expect(Number(second.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      return;
    }
    throw new Error('three minutes turned during three tries');
  });

  it('keeps a window’s use across a restart (the stored window is read again)', async () => {
    const key = await r.newKey(cookie, { setting: { budgets: [{ period: 'month', requests: 1 }] } });
    expect((await post(key)).status).toBe(200);
    await r.t.app.relay.flush();
    const restarted = await startSecondNode(r);
    try {
      await expectRefusal(await post(key, chat, restarted.baseURL), 'monthly requests budget of this API key');
    } finally {
      await restarted.t.close();
    }
  });

  it('refuses malformed budgets naming the field, and stores nothing', async () => {
    const attempts: Array<[unknown, string]> = [
      [[{ period: 'hour', requests: 1 }], 'period must be one of 5h, day, week, month'],
      [[{ period: 'day' }], 'a budget needs at least one of quota, requests or tokens'],
      [
        [
          { period: 'day', requests: 1 },
          { period: 'day', quota: 5 },
        ],
        'budgets has two day windows',
      ],
      [[{ period: 'day', requests: 0 }], 'requests must be at least 1'],
      [[{ period: 'day', requests: 1, dollars: 3 }], 'dollars is not a known budget field'],
    ];
    for (const [budgets, message] of attempts) {
      const response = await r.t.app.inject({
        method: 'POST',
        url: '/api/token/',
        headers: { cookie },
        payload: { name: 'bad budgets', setting: { budgets } },
      });
      expect(response.statusCode).toBe(400);
      expect((response.json() as { message: string }).message).toContain(message);
    }
    const list = await r.t.app.inject({ method: 'GET', url: '/api/token/?size=100', headers: { cookie } });
    const names = (list.json() as { data: { data: Array<{ name: string }> } }).data.data.map((row) => row.name);
    expect(names).not.toContain('bad budgets');
    const group = await r.admin('POST', '/api/user_group/', { symbol: 'badtpm', name: 'bad', tpm: -1 });
    expect(group.status).toBe(400);
    expect(group.body.message).toContain('tpm must be at least 0');
  });

  it('counts calendar windows from midnight in the site’s time zone', async () => {
    await r.t.services.options.update('BudgetWindowMode', 'calendar');
    await r.t.services.options.update('SiteTimeZone', 'Asia/Shanghai');
    try {
      const key = await r.newKey(cookie, { setting: { budgets: [{ period: 'day', requests: 5 }] } });
      const clock = { mode: 'calendar' as const, timeZone: 'Asia/Shanghai' };
      const before = windowAt('day', clock, Date.now());
      expect((await post(key)).status).toBe(200);
      const view = await r.t.app.inject({ method: 'GET', url: `/api/token/${await keyId(key)}`, headers: { cookie } });
      const after = windowAt('day', clock, Date.now());
      const [window] = (view.json() as { data: { budget_windows: BudgetWindowView[] } }).data.budget_windows;
      // Shanghai's midnight is 16:00 UTC; the window is the day the request fell in.
      expect([before.start / 1000, after.start / 1000]).toContain(window?.started_at);
      expect(((window?.started_at ?? 0) * 1000) % 86_400_000).toBe(16 * 3_600_000);
      expect(window?.used_requests).toBe(1);
    } finally {
      await r.t.services.options.update('BudgetWindowMode', 'rolling');
      await r.t.services.options.update('SiteTimeZone', 'UTC');
    }
  });

  it('with NoChargeForEmptyAnswers, charges nothing for an answer without completion tokens', async () => {
    const { id, cookie: own } = await r.t.createUser(`empty${dialect.slice(0, 3)}`);
    expect((await r.admin('POST', `/api/user/quota/${id}`, { quota: 10_000 })).status).toBe(200);
    const key = await r.newKey(own);
    r.upstream.behaviour.usage = { prompt_tokens: 10, completion_tokens: 0 };
    try {
      expect((await post(key)).status).toBe(200);
      expect(await storedQuota(r, id)).toBe(10_000 - 10);
      await r.t.services.options.update('NoChargeForEmptyAnswers', 'true');
      expect((await post(key)).status).toBe(200);
      expect(await storedQuota(r, id)).toBe(10_000 - 10);
      r.upstream.behaviour.usage = USAGE;
      expect((await post(key)).status).toBe(200);
      expect(await storedQuota(r, id)).toBe(10_000 - 10 - COST);
    } finally {
      r.upstream.behaviour.usage = USAGE;
      await r.t.services.options.update('NoChargeForEmptyAnswers', 'false');
    }
  });
});
