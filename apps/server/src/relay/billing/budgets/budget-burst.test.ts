import { LogType } from '@one-hub/contracts';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/app.js';
import { availableDialects } from '../../../../test/databases.js';
import { type RelayTestContext, startRelayTest, startSecondNode } from '../../../../test/relay-setup.js';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Issue 33: 200 requests at once against a key whose budget allows 50 — a requests window and a
 * money window — on one node and on two nodes sharing Redis. Never more than the budget is served,
 * the rest get 429 budget_exceeded, and the spend is exact: what the balance lost is what the log
 * rows charged and what the window counted.
 */
const BURST = 200;
const ALLOWED = 50;
const USAGE = { prompt_tokens: 10, completion_tokens: 6 };
// gpt-4o-mini is priced 1 in, 2 out in startRelayTest.
const COST = USAGE.prompt_tokens + USAGE.completion_tokens * 2;
const messages = [{ role: 'user' as const, content: 'Hello' }];

async function prepare(r: RelayTestContext): Promise<void> {
  r.upstream.behaviour.usage = USAGE;
  // Answers take a moment, as upstreams' do: the burst's requests are in flight together.
  r.upstream.behaviour.answerDelayMs = 200;
  const groups = (await r.admin('GET', '/api/user_group/')).body.data as { data: Array<{ symbol: string }> };
  const group = groups.data.find((entry) => entry.symbol === 'default');
  // The group's rate limit is lifted: the budget, not the limiter, decides here.
  expect((await r.admin('PUT', '/api/user_group/', { ...group, api_rate: 0 })).status).toBe(200);
}

async function flushAll(nodes: TestApp[]): Promise<void> {
  for (const node of nodes) await node.app.relay.flush();
}

async function burst(r: RelayTestContext, nodes: TestApp[], baseUrls: string[], budget: object) {
  const cookie = await r.t.login('relayuser', 'password-123');
  const name = `burst ${Object.keys(budget).join(' ')}`;
  const key = await r.newKey(cookie, { name, setting: { budgets: [budget] } });
  await flushAll(nodes);
  const balanceBefore = Number((await r.t.services.userRepository.findById(r.userId))?.quota);
  const clients = baseUrls.map((baseURL) => new OpenAI({ apiKey: key, baseURL, maxRetries: 0 }));
  const results = await Promise.allSettled(
    Array.from({ length: BURST }, (_, index) =>
      (clients[index % clients.length] as OpenAI).chat.completions.create({
        model: 'gpt-4o-mini',
        max_tokens: USAGE.completion_tokens,
        messages,
      }),
    ),
  );
  const served = results.filter((result) => result.status === 'fulfilled').length;
  for (const result of results) {
    if (result.status === 'fulfilled') continue;
    expect(result.reason).toBeInstanceOf(APIError);
    expect(result.reason).toMatchObject({ status: 429, code: 'budget_exceeded' });
  }
  expect(served).toBeLessThanOrEqual(ALLOWED);

  await flushAll(nodes);
  const balanceAfter = Number((await r.t.services.userRepository.findById(r.userId))?.quota);
  expect(balanceBefore - balanceAfter).toBe(served * COST);
  const tokenId = Number(
    (await r.t.database.db.selectFrom('tokens').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id,
  );
  const rows = await r.t.database.db
    .selectFrom('logs')
    .select('quota')
    .where('type', '=', LogType.consume)
    .where('token_id', '=', tokenId)
    .execute();
  expect(rows).toHaveLength(served);
  expect(rows.reduce((sum, row) => sum + Number(row.quota), 0)).toBe(served * COST);
  const usage = await r.t.database.db
    .selectFrom('budget_usage')
    .selectAll()
    .where('subject', '=', `key:${tokenId}`)
    .executeTakeFirstOrThrow();
  expect(Number(usage.requests)).toBe(served);
  expect(Number(usage.quota)).toBe(served * COST);
  return served;
}

async function bothBudgets(r: RelayTestContext, nodes: TestApp[], baseUrls: string[]) {
  // A window of 50 requests: exactly 50 are served, however the burst interleaves.
  expect(await burst(r, nodes, baseUrls, { period: 'day', requests: ALLOWED })).toBe(ALLOWED);
  // A window of 50 requests' money: each request holds its estimate (at least its cost) while it
  // runs, so some of the last may be turned away, but never is the window passed.
  const served = await burst(r, nodes, baseUrls, { period: 'day', quota: ALLOWED * COST });
  expect(served).toBeGreaterThan(0);
}

describe.each(availableDialects)('a burst of 200 requests against a budget for 50 on one node (%s)', (dialect) => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    await prepare(r);
  });
  afterAll(async () => r?.close());

  it('serves at most the budget, refuses the rest with budget_exceeded, and spends exactly', async () => {
    await bothBudgets(r, [r.t], [r.baseURL]);
  });
});

describe.each(availableDialects.filter((dialect) => dialect !== 'sqlite' && redisUrl))(
  'a burst of 200 requests against a budget for 50 on two nodes sharing %s and Redis',
  (dialect) => {
    let r: RelayTestContext;
    let second: { t: TestApp; baseURL: string };
    beforeAll(async () => {
      const env = { REDIS_CONN_STRING: String(redisUrl) };
      r = await startRelayTest({ dialect, cache: 'configured', env });
      await prepare(r);
      second = await startSecondNode(r, { cache: 'configured', env });
    });
    afterAll(async () => {
      await second?.t.close();
      await r?.close();
    });

    it('serves at most the budget with the requests split over both nodes, and spends exactly', async () => {
      await bothBudgets(r, [r.t, second.t], [r.baseURL, second.baseURL]);
    });
  },
);
