import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.js';
import { type MockUpstream, startMockUpstream } from '../test/mocks/openai-upstream.js';
import {
  chat,
  disableAndWatch,
  manage,
  setRoundPrice,
  settledBooks,
  spenderWithKey,
  spendOnAll,
} from '../test/node-checks.js';
import {
  commandsPerRequest,
  countWhile,
  describeByCommand,
  type PrivateRedis,
  startPrivateRedis,
} from '../test/redis-commands.js';
import { type ServerProcess, startServerProcess } from '../test/server-process.js';
import { createTestChannel } from '../test/test-channel.js';
import { providerType } from './domain/channel-types/registry.js';

const ROOT_TOKEN = 'four-nodes-root-access-token-0123456789';

/**
 * Issue 38: four real server processes on one PostgreSQL database and one Redis, as a multi-node
 * deploy runs them (one SQL_DSN, one REDIS_CONN_STRING, one SESSION_SECRET). The Redis is a private
 * redis-server, so its command counts are this file's alone. The in-process, SQLite version of
 * these checks is multi-node.test.ts; `npm run bench:nodes` measures the same under load.
 */
describe.skipIf(!process.env.TEST_PG_URL || !process.env.TEST_REDIS_URL)('four nodes on PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let redis: PrivateRedis;
  let upstream: MockUpstream;
  const nodes: ServerProcess[] = [];
  let bases: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    redis = await startPrivateRedis();
    upstream = await startMockUpstream();
    const environment = (index: number) => ({
      SQL_DSN: database.target.sqlDsn ?? '',
      REDIS_CONN_STRING: redis.url,
      SESSION_SECRET: 'four-nodes-session-secret-0123456789',
      NODE_TYPE: index === 0 ? 'master' : 'slave',
      // Each node's own data folder (its crash journal); the database is SQL_DSN's.
      SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'one-hub-four-nodes-')), 'unused.db'),
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    });
    // The first node migrates the fresh database; the other three start together once it has.
    nodes.push(await startServerProcess(environment(0)));
    nodes.push(...(await Promise.all([1, 2, 3].map((index) => startServerProcess(environment(index))))));
    bases = nodes.map((node) => node.url);
    const root = { token: ROOT_TOKEN };
    const first = bases[0] ?? '';
    await createTestChannel(upstream, (path, body) => manage(first, root, 'POST', path, body));
    const groups = (await manage(first, root, 'GET', '/api/user_group/')).data as { data: Array<{ symbol: string }> };
    const group = groups.data.find((entry) => entry.symbol === 'default');
    await manage(first, root, 'PUT', '/api/user_group/', { ...group, api_rate: 0 });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await upstream?.close();
    await redis?.stop();
    await database?.drop();
  });

  /** A key of root's that every node has served (so each knows the channel the first node added). */
  async function servedKey(name: string, setting?: object): Promise<{ id: number; key: string }> {
    const created = (
      await manage(bases[0] ?? '', { token: ROOT_TOKEN }, 'POST', '/api/token/', {
        name,
        expired_time: -1,
        remain_quota: 0,
        unlimited_quota: true,
        ...(setting ? { setting } : {}),
      })
    ).data as { id: number; key: string };
    for (const base of bases) await expect.poll(() => chat(base, created.key)).toBe(200);
    return created;
  }

  it('never overdraws a balance spent on all four nodes at once', async () => {
    await setRoundPrice(bases[0] ?? '', ROOT_TOKEN, providerType('openai'));
    await servedKey('warm-up');
    const start = 3000;
    const spender = await spenderWithKey(bases[0] ?? '', ROOT_TOKEN, 'spender', start);
    const answeredBefore = upstream.received.length;
    const statuses = await spendOnAll(bases, spender.key, { perNode: 4, maxRequests: 1000, refusalsToStop: 2 });
    const served = statuses.get(200) ?? 0;
    expect(served, `statuses: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
    // The balance ran out: requests were refused, and the upstream answered only the served ones.
    expect([...statuses.keys()].some((status) => status !== 200)).toBe(true);
    expect(upstream.received.length - answeredBefore).toBe(served);
    const books = await settledBooks(database.target.sqlDsn ?? '', spender.userId, start);
    expect(books.balance).toBeGreaterThanOrEqual(0);
    expect(books.charged).toBeGreaterThan(0);
    expect(books.charged).toBeLessThanOrEqual(start);
    expect(books.balance + books.charged).toBe(start);
  });

  it('never passes a daily requests budget spent on all four nodes at once', async () => {
    const allowed = 300;
    const { key } = await servedKey('budgeted', { budgets: [{ period: 'day', requests: allowed }] });
    const statuses = await spendOnAll(bases, key, { perNode: 4, maxRequests: 1000, refusalsToStop: 3 });
    // One request per node was served by servedKey's warm-up.
    const served = (statuses.get(200) ?? 0) + bases.length;
    expect(served).toBeLessThanOrEqual(allowed);
    // The nodes' window leases strand little of it (each node gives its own back when refused beside it).
    expect(served).toBeGreaterThanOrEqual(allowed * 0.9);
    expect([...statuses.keys()].every((status) => status === 200 || status === 429)).toBe(true);
  });

  it('refuses a key on every node once it is disabled on the first', async () => {
    const created = await servedKey('to-disable');
    // Each node holds the key in its cache now; the bound is well under that cache's ten seconds.
    const refusedAfter = await disableAndWatch(bases, ROOT_TOKEN, created.key, created.id, 2000);
    expect(refusedAfter.every((ms) => ms !== null)).toBe(true);
  });

  it('serves a key with an RPM, a TPM and a daily budget in at most 4 Redis commands per relay request', async () => {
    const { key } = await servedKey('counted', {
      limits: { rpm: 1_000_000, tpm: 1_000_000_000 },
      budgets: [{ period: 'day', requests: 1_000_000 }],
    });
    // Warm: every node's leases taken at the steady rate.
    for (let index = 0; index < 40; index++) expect(await chat(bases[index % bases.length] ?? '', key)).toBe(200);
    const requests = 400;
    let sent = 0;
    const run = await countWhile(redis.client, async () => {
      // Two requests in flight on each node, until `requests` were sent.
      await Promise.all(
        Array.from({ length: bases.length * 2 }, async (_, worker) => {
          while (sent < requests) {
            sent++;
            expect(await chat(bases[worker % bases.length] ?? '', key)).toBe(200);
          }
        }),
      );
    });
    // The same nodes idle for as long: their timers, flushes and renewals.
    const idle = await countWhile(redis.client, () => sleep(run.seconds * 1000));
    const perRequest = commandsPerRequest(run, idle, requests);
    console.log(
      `Redis commands per request on four nodes: ${perRequest.total.toFixed(2)} (${describeByCommand(perRequest)})`,
    );
    expect(perRequest.total).toBeLessThanOrEqual(4);
  });
});
