import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commandsPerRequest,
  countWhile,
  describeByCommand,
  type PrivateRedis,
  startPrivateRedis,
} from '../../test/redis-commands.js';
import { type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';

/**
 * Issue 38's measure, as a test: Redis commands per relay request in a steady run through one
 * node, counted by Redis itself (`INFO commandstats`, which counts the commands a script runs
 * too), with the background rate of the same node sitting idle for as long subtracted. It needs a
 * Redis of its own, so nothing else's commands are counted: a redis-server started here on a free
 * loopback port; without redis-server on PATH it is skipped.
 */
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const REQUESTS = 300;
const CONCURRENCY = 8;

describe.skipIf(!hasRedisServer)('Redis commands per relay request (issue 38)', () => {
  let redis: PrivateRedis;
  let r: RelayTestContext;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    r = await startRelayTest({ cache: 'configured', env: { REDIS_CONN_STRING: redis.url } });
  }, 60_000);

  afterAll(async () => {
    await r?.close();
    await redis?.stop();
  });

  /** Commands per request over a steady run of REQUESTS chats with `key`, the idle rate subtracted. */
  async function measure(key: string): Promise<{ total: number; perRequest: Map<string, number> }> {
    const chat = () =>
      fetch(`${r.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    // Warm up: balances loaded, slices and leases grown to the steady rate.
    for (let index = 0; index < 20; index++) expect(await chat()).toBe(200);

    let sent = 0;
    const statuses: number[] = [];
    const load = await countWhile(redis.client, async () => {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (sent < REQUESTS) {
            sent += 1;
            statuses.push(await chat());
          }
        }),
      );
    });
    expect(statuses.filter((status) => status === 200)).toHaveLength(REQUESTS);
    // The same node idle for as long: timers, flushes, renewals.
    const idle = await countWhile(redis.client, () => sleep(load.seconds * 1000));
    const counted = commandsPerRequest(load, idle, REQUESTS);
    console.log(
      `Redis commands per request for ${key.slice(0, 6)}…: ${counted.total.toFixed(1)} (${describeByCommand(counted)})`,
    );
    return { total: counted.total, perRequest: new Map(counted.byCommand) };
  }

  async function prepareUser(): Promise<string> {
    const cookie = await r.t.login('relayuser', 'password-123');
    await r.admin('POST', `/api/user/quota/${r.userId}`, { quota: 1_000_000_000 });
    // The group's own RPM (600 by default) would refuse this load; the key's RPM is the one counted.
    const groups = (await r.admin('GET', '/api/user_group/')).body.data as { data: Array<{ symbol: string }> };
    const group = groups.data.find((entry) => entry.symbol === 'default');
    expect((await r.admin('PUT', '/api/user_group/', { ...group, api_rate: 0 })).status).toBe(200);
    return cookie;
  }

  it('serves a key with a balance, RPM, TPM and a budget in at most 4 commands per request, the RPM limit costing almost none', async () => {
    const cookie = await prepareUser();
    const key = await r.newKey(cookie, {
      unlimited_quota: false,
      remain_quota: 1_000_000_000,
      setting: { limits: { rpm: 1_000_000, tpm: 1_000_000_000 }, budgets: [{ period: 'day', quota: 1_000_000_000 }] },
    });
    const { total, perRequest } = await measure(key);
    // TIME is run by the RPM bucket's script alone (once a call): per slice now, not per request.
    expect(perRequest.get('time') ?? 0).toBeLessThan(0.1);
    // The budget window and the TPM minute are held and settled on window leases, flushed per batch.
    expect(total).toBeLessThanOrEqual(4);
  }, 120_000);

  it('serves a key with its own balance and an RPM, and the user’s balance, in at most 4 commands per request', async () => {
    const cookie = await prepareUser();
    const key = await r.newKey(cookie, {
      unlimited_quota: false,
      remain_quota: 1_000_000_000,
      setting: { limits: { rpm: 1_000_000 } },
    });
    // Balance leases: the user's and the key's balance reserved and settled on the node, flushed per batch.
    const { total } = await measure(key);
    expect(total).toBeLessThanOrEqual(4);
  }, 120_000);
});
