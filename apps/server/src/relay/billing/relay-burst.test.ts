import { LogType } from '@one-hub/contracts';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.js';
import { type RelayTestContext, startRelayTest, startSecondNode } from '../../../test/relay-setup.js';
import { countChatPromptTokens } from './metering.js';

const redisUrl = process.env.TEST_REDIS_URL;
const pgUrl = process.env.TEST_PG_URL;

/**
 * Issue 30: a user whose balance pays for exactly 50 requests sends 200 at once. Reservations
 * held by requests in flight must not turn paid-for requests away: at least 48 are served (the
 * reservation's prompt part is a generous estimate, so the last one or two may find too little
 * left), the rest get 429 `insufficient_quota`, and the spend is exact: what the balance lost is
 * what the log rows charged, is the served requests times one request's price, and never more
 * than the balance.
 */
const BURST = 200;
const PAID_FOR = 50;
const messages = [{ role: 'user' as const, content: 'Say hello to the gateway, please.' }];
// The upstream counts the prompt with the real tokenizer (the relay reserves on a generous
// estimate) and answers 7 tokens; gpt-4o-mini is priced 1 in, 2 out in startRelayTest.
const promptTokens = countChatPromptTokens({ messages });
const completionTokens = 7;
const requestCost = promptTokens * 1 + completionTokens * 2;

async function prepare(r: RelayTestContext): Promise<void> {
  r.upstream.behaviour.usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens };
  // Answers take a moment, as upstreams' do: the burst's requests are in flight together, holding
  // their reservations while the others arrive.
  r.upstream.behaviour.answerDelayMs = 300;
  // The group's rate limit is raised: the ledger, not the limiter, is what decides here.
  const groups = (await r.admin('GET', '/api/user_group/')).body.data as { data: Array<{ symbol: string }> };
  const group = groups.data.find((entry) => entry.symbol === 'default');
  expect((await r.admin('PUT', '/api/user_group/', { ...group, api_rate: 0 })).status).toBe(200);
  expect((await r.admin('POST', `/api/user/quota/${r.userId}`, { quota: PAID_FOR * requestCost })).status).toBe(200);
  // The default bound (5 s) is ample here; a busy test machine must still not turn a slow wait into a refusal.
  await r.t.services.options.update('QuotaWaitSeconds', '60');
}

async function storedBalance(nodes: TestApp[], userId: number): Promise<number> {
  for (const node of nodes) await node.app.relay.flush();
  return Number((await nodes[0]?.services.userRepository.findById(userId))?.quota);
}

/** Sends the burst, spread over `baseUrls`, and checks what was served and what it cost. */
async function burstAtTheEndOfTheBalance(r: RelayTestContext, nodes: TestApp[], baseUrls: string[]) {
  const before = await storedBalance(nodes, r.userId);
  expect(before).toBe(PAID_FOR * requestCost);
  const clients = baseUrls.map((baseURL) => new OpenAI({ apiKey: r.apiKey, baseURL, maxRetries: 0 }));
  // A free request on each node first (omni-moderation-latest costs nothing): each has the user's
  // balance at hand, as for a user with steady traffic, so the burst's requests reserve at once
  // instead of each waiting for its own read of the balance.
  for (const client of clients) await client.moderations.create({ model: 'omni-moderation-latest', input: 'hi' });
  const results = await Promise.allSettled(
    Array.from({ length: BURST }, (_, index) =>
      (clients[index % clients.length] as OpenAI).chat.completions.create({ model: 'gpt-4o-mini', messages }),
    ),
  );
  const served = results.filter((result) => result.status === 'fulfilled').length;
  const refusals = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  for (const refusal of refusals) {
    expect(refusal).toBeInstanceOf(APIError);
    expect(refusal).toMatchObject({ status: 429, code: 'insufficient_quota' });
  }
  expect(served).toBeGreaterThanOrEqual(PAID_FOR - 2);
  expect(served).toBeLessThanOrEqual(PAID_FOR);
  expect(r.upstream.received.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(served);

  const after = await storedBalance(nodes, r.userId);
  expect(after).toBeGreaterThanOrEqual(0);
  expect(before - after).toBe(served * requestCost);
  const rows = await r.t.database.db
    .selectFrom('logs')
    .select(['quota'])
    .where('type', '=', LogType.consume)
    .where('user_id', '=', r.userId)
    .where('model_name', '=', 'gpt-4o-mini')
    .execute();
  expect(rows).toHaveLength(served);
  expect(rows.reduce((sum, row) => sum + Number(row.quota), 0)).toBe(before - after);
}

describe('a burst of 200 requests at the end of a balance that pays for 50', () => {
  describe('on one node (SQLite)', () => {
    let r: RelayTestContext;
    beforeAll(async () => {
      r = await startRelayTest({ quota: 0 });
      await prepare(r);
    });
    afterAll(async () => r?.close());

    it('serves what the balance pays for, refuses the rest with insufficient_quota, and spends exactly', async () => {
      await burstAtTheEndOfTheBalance(r, [r.t], [r.baseURL]);
    });
  });

  // Two nodes share the balance through Redis, on one PostgreSQL database.
  describe.skipIf(!redisUrl || !pgUrl)('on two nodes sharing PostgreSQL and Redis', () => {
    let r: RelayTestContext;
    let second: { t: TestApp; baseURL: string };
    beforeAll(async () => {
      const env = { REDIS_CONN_STRING: String(redisUrl) };
      r = await startRelayTest({ quota: 0, dialect: 'postgres', cache: 'configured', env });
      await prepare(r);
      // Started after the setup, the second node reads the channel, prices and group as they are now.
      second = await startSecondNode(r, { cache: 'configured', env });
    });
    afterAll(async () => {
      await second?.t.close();
      await r?.close();
    });

    it('serves what the balance pays for with the requests split over both nodes, and spends exactly', async () => {
      await burstAtTheEndOfTheBalance(r, [r.t, second.t], [r.baseURL, second.baseURL]);
    });
  });
});
