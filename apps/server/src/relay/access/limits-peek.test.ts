import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { randomString } from '../../platform/crypto.js';
import { createMemoryRateLimiter, createRedisRateLimiter } from './limits.js';

// Reading a limiter without spending is what the dashboard's rate card shows (api/statistics):
// the relayed side of it is covered in api/statistics/rate.test.ts.
describe('reading the memory limiter without spending', () => {
  it('counts a fixed window exactly and starts again a minute after its first request', async () => {
    let now = 60_000 * 20 + 5_000;
    const limiter = createMemoryRateLimiter(() => now);
    expect(await limiter.peek('user:1', 30)).toBe(0);
    for (let index = 0; index < 4; index++) await limiter.take('user:1', 30);
    expect(await limiter.peek('user:1', 30)).toBe(4);
    expect(await limiter.peek('user:1', 30)).toBe(4);
    expect(await limiter.peek('user:2', 30)).toBe(0);
    now += 59_999;
    expect(await limiter.peek('user:1', 30)).toBe(4);
    now += 1;
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
