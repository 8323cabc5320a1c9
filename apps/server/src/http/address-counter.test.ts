import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryAddressCounter, createRedisAddressCounter } from './address-counter.js';

describe('the per-address counters in memory', () => {
  it('counts within a window that starts at the first request, then starts again', async () => {
    let now = 1_000_000;
    const counter = createMemoryAddressCounter(() => now);
    expect(await counter.count('web:192.0.2.1', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    now += 20_000;
    expect(await counter.count('web:192.0.2.1', 60_000)).toEqual({ count: 2, resetInMs: 40_000 });
    // Another key is counted on its own.
    expect(await counter.count('api:192.0.2.1', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    now += 40_000;
    expect(await counter.count('web:192.0.2.1', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('the per-address counters in Redis', () => {
  const redis = redisUrl ? new Redis(redisUrl) : undefined;
  afterAll(() => redis?.disconnect());

  it('keeps one counter per key under the prefix, living as long as the window', async () => {
    const client = redis as Redis;
    const prefix = `test-${randomUUID()}:ratelimit:`;
    const counter = createRedisAddressCounter(client, prefix);
    const first = await counter.count('web:192.0.2.1', 60_000);
    expect(first.count).toBe(1);
    expect(first.resetInMs).toBeGreaterThan(0);
    expect(first.resetInMs).toBeLessThanOrEqual(60_000);
    expect((await counter.count('web:192.0.2.1', 60_000)).count).toBe(2);
    expect(await client.keys(`${prefix}*`)).toEqual([`${prefix}web:192.0.2.1`]);
    await client.del(`${prefix}web:192.0.2.1`);
  });

  it('starts counting again once the window has ended', async () => {
    const client = redis as Redis;
    const key = `test-${randomUUID()}:ratelimit:web:192.0.2.2`;
    const counter = createRedisAddressCounter(client, '');
    await counter.count(key, 200);
    await counter.count(key, 200);
    // Redis ends the window by deleting the key; wait for that state, then count afresh.
    await expect.poll(() => client.exists(key), { timeout: 10_000 }).toBe(0);
    expect((await counter.count(key, 60_000)).count).toBe(1);
    await client.del(key);
  });
});
