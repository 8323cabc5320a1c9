import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match?.[1] && match[2]) calls.set(match[1], Number(match[2]));
  }
  calls.delete('config');
  calls.delete('info');
  return calls;
}

describe.skipIf(!hasRedisServer)('Redis commands per relay request (issue 38)', () => {
  let server: ChildProcess;
  let redis: Redis;
  let r: RelayTestContext;

  beforeAll(async () => {
    const port = await freePort();
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    // Until the server listens (bounded): a fresh client per attempt.
    for (let attempt = 0; ; attempt++) {
      const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
      client.on('error', () => {});
      try {
        await client.connect();
        redis = client;
        break;
      } catch (error) {
        client.disconnect();
        if (attempt >= 50) throw error;
        await sleep(100);
      }
    }
    r = await startRelayTest({ cache: 'configured', env: { REDIS_CONN_STRING: `redis://127.0.0.1:${port}` } });
  }, 60_000);

  afterAll(async () => {
    await r?.close();
    redis?.disconnect();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
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

    await redis.config('RESETSTAT');
    const started = performance.now();
    let sent = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < REQUESTS) {
          sent += 1;
          statuses.push(await chat());
        }
      }),
    );
    const loadMs = performance.now() - started;
    const load = await commandCalls(redis);
    expect(statuses.filter((status) => status === 200)).toHaveLength(REQUESTS);

    // The same node idle for as long: timers, flushes, renewals.
    await redis.config('RESETSTAT');
    await sleep(loadMs);
    const idle = await commandCalls(redis);

    const perRequest = new Map<string, number>();
    for (const [name, count] of load) perRequest.set(name, Math.max(0, count - (idle.get(name) ?? 0)) / REQUESTS);
    const total = [...perRequest.values()].reduce((sum, value) => sum + value, 0);
    const detail = [...perRequest]
      .filter(([, value]) => value >= 0.005)
      .sort((left, right) => right[1] - left[1])
      .map(([name, value]) => `${name} ${value.toFixed(2)}`)
      .join(', ');
    console.log(`Redis commands per request for ${key.slice(0, 6)}…: ${total.toFixed(1)} (${detail})`);
    return { total, perRequest };
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

  it('counts the commands of a key with a balance, RPM, TPM and a budget, and the RPM limit costs almost none', async () => {
    const cookie = await prepareUser();
    const key = await r.newKey(cookie, {
      unlimited_quota: false,
      remain_quota: 1_000_000_000,
      setting: { limits: { rpm: 1_000_000, tpm: 1_000_000_000 }, budgets: [{ period: 'day', quota: 1_000_000_000 }] },
    });
    const { total, perRequest } = await measure(key);
    // TIME is run by the RPM bucket's script alone (once a call): per slice now, not per request.
    expect(perRequest.get('time') ?? 0).toBeLessThan(0.1);
    // Reported, not yet bounded: the budget windows (and TPM) still hold and settle per request.
    expect(total).toBeGreaterThan(0);
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
