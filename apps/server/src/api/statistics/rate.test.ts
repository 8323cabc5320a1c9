import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { randomString } from '../../platform/crypto.js';
import { createMemoryRateLimiter, createRedisRateLimiter } from '../../relay/access/limits.js';

describe('reading the memory limiter without spending', () => {
  it('counts a fixed window exactly and starts again with the next minute', async () => {
    let now = 60_000 * 20 + 5_000;
    const limiter = createMemoryRateLimiter(() => now);
    expect(await limiter.peek('user:1', 30)).toBe(0);
    for (let index = 0; index < 4; index++) await limiter.take('user:1', 30);
    expect(await limiter.peek('user:1', 30)).toBe(4);
    expect(await limiter.peek('user:1', 30)).toBe(4);
    expect(await limiter.peek('user:2', 30)).toBe(0);
    now += 55_000;
    expect(await limiter.peek('user:1', 30)).toBe(0);
    expect((await limiter.take('user:1', 30)).allowed).toBe(true);
    expect(await limiter.peek('user:1', 30)).toBe(1);
  });

  it('scales a token bucket’s drawn-down share to the limit: the limit itself when requests are refused', async () => {
    let now = 5_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    expect(await limiter.peek('user:1', 120)).toBe(0);
    // 120 RPM: 2 tokens a second, a burst of 20.
    for (let index = 0; index < 10; index++) await limiter.take('user:1', 120);
    expect(await limiter.peek('user:1', 120)).toBe(60);
    for (let index = 0; index < 10; index++) await limiter.take('user:1', 120);
    expect(await limiter.peek('user:1', 120)).toBe(120);
    expect((await limiter.take('user:1', 120)).allowed).toBe(false);
    now += 5_000;
    expect(await limiter.peek('user:1', 120)).toBe(60);
    now += 60_000;
    expect(await limiter.peek('user:1', 120)).toBe(0);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('reading the Redis limiter without spending', () => {
  const client = new Redis(redisUrl ?? '');
  const limiter = createRedisRateLimiter(client, `onehub-test:${randomString(8)}:`);
  afterAll(async () => {
    await client.quit();
  });

  it('reads the shared fixed window, capped at the limit', async () => {
    expect(await limiter.peek('user:1', 5)).toBe(0);
    for (let index = 0; index < 3; index++) await limiter.take('user:1', 5);
    expect(await limiter.peek('user:1', 5)).toBe(3);
    for (let index = 0; index < 5; index++) await limiter.take('user:1', 5);
    expect(await limiter.peek('user:1', 5)).toBe(5);
  });

  it('reads the shared token bucket', async () => {
    expect(await limiter.peek('user:2', 600)).toBe(0);
    // 600 RPM: a burst of 100 refilling at 10 a second; draining it leaves the level near the limit.
    for (let index = 0; index < 100; index++) await limiter.take('user:2', 600);
    const rpm = await limiter.peek('user:2', 600);
    expect(rpm).toBeGreaterThan(0);
    expect(rpm).toBeLessThanOrEqual(600);
  });
});

function currentMinute(): number {
  return Math.floor(Date.now() / 60_000);
}

describe.each(availableDialects)('relayed requests on the dashboard (%s)', (dialect) => {
  let r: RelayTestContext;
  let cookie: string;

  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    cookie = await r.t.login('relayuser', 'password-123');
    // Below 60 RPM the limiter is a fixed window, which counts every request exactly.
    const groups = await r.admin('GET', '/api/user_group/?size=100');
    const list = (groups.body.data as { data: Array<Record<string, unknown>> }).data;
    const defaultGroup = list.find((group) => group.symbol === 'default');
    const updated = await r.admin('PUT', '/api/user_group/', { ...defaultGroup, api_rate: 30 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  });
  afterAll(async () => {
    await r?.close();
  });

  it('counts the relayed requests against the group limit and rolls their usage into the dashboard', async () => {
    const minute = currentMinute();
    for (let index = 0; index < 3; index++) {
      await r.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    }
    const rate = await r.t.app.inject({ method: 'GET', url: '/api/user/dashboard/rate', headers: { cookie } });
    expect(rate.statusCode, rate.body).toBe(200);
    const data = rate.json().data;
    expect(data.maxRPM).toBe(30);
    expect([data.tpm, data.maxTPM, data.usageTpmRate]).toEqual([0, 0, 0]);
    // A new minute may start between the requests and the reading; then fewer are counted.
    if (currentMinute() === minute) expect(data.rpm).toBe(3);
    else expect(data.rpm).toBeLessThanOrEqual(3);
    expect(data.usageRpmRate).toBe(Math.round((data.rpm / 30) * 10_000) / 100);

    await r.t.app.relay.flush();
    const dashboard = await r.t.app.inject({ method: 'GET', url: '/api/user/dashboard', headers: { cookie } });
    const rows = dashboard.json().data as Array<{ ModelName: string; RequestCount: number; Quota: number }>;
    const logs = await r.t.database.db
      .selectFrom('logs')
      .select(['quota'])
      .where('type', '=', 2)
      .where('user_id', '=', r.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.ModelName).toBe('gpt-4o-mini');
    expect(rows[0]?.RequestCount).toBe(3);
    expect(rows[0]?.Quota).toBe(logs.reduce((sum, log) => sum + Number(log.quota), 0));
    expect(rows[0]?.Quota).toBeGreaterThan(0);
  });
});
