import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { randomString } from '../../platform/crypto.js';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './limits.js';

describe('memory rate limiter on a fake clock', () => {
  it('allows N per minute from the first request below 60 RPM and says when to retry', async () => {
    let now = 60_000 * 10 + 15_000;
    const limiter = createMemoryRateLimiter(() => now);
    const results = [];
    for (let index = 0; index < 4; index++) results.push((await limiter.take('user:1', 3)).allowed);
    expect(results).toEqual([true, true, true, false]);
    now += 15_000;
    // The window began with the first request, not with the clock's minute: crossing it changes nothing.
    expect((await limiter.take('user:1', 3)).retryAfterSeconds).toBe(45);
    now += 44_999;
    expect((await limiter.take('user:1', 3)).allowed).toBe(false);
    now += 1;
    expect((await limiter.take('user:1', 3)).allowed).toBe(true);
    expect((await limiter.take('user:2', 3)).allowed).toBe(true);
  });

  it('uses a token bucket from 60 RPM: a burst of ten seconds, then the refill rate', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    let burst = 0;
    while ((await limiter.take('user:1', 120)).allowed) burst++;
    expect(burst).toBe(20);
    now += 1000;
    expect((await limiter.take('user:1', 120)).allowed).toBe(true);
    expect((await limiter.take('user:1', 120)).allowed).toBe(true);
    expect((await limiter.take('user:1', 120)).allowed).toBe(false);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

// Shared limits need a Redis server; without TEST_REDIS_URL there is none to test against.
describe.skipIf(!redisUrl)('Redis rate limiter shared by two nodes', () => {
  const clients = [new Redis(redisUrl ?? ''), new Redis(redisUrl ?? '')];
  const prefix = `onehub-test:${randomString(8)}:`;
  const nodes: RateLimiter[] = clients.map((client) => createRedisRateLimiter(client, prefix));
  afterAll(async () => {
    for (const client of clients) await client.quit();
  });

  it('counts a fixed window across nodes', async () => {
    const allowed = [];
    for (let index = 0; index < 6; index++)
      allowed.push((await (nodes[index % 2] as RateLimiter).take('user:1', 5)).allowed);
    expect(allowed).toEqual([true, true, true, true, true, false]);
  });

  it('shares one token bucket across nodes', async () => {
    const decisions = await Promise.all(
      Array.from({ length: 30 }, (_, index) => (nodes[index % 2] as RateLimiter).take('user:2', 60)),
    );
    const allowed = decisions.filter((decision) => decision.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThanOrEqual(11);
    expect(decisions.find((decision) => !decision.allowed)?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('hands the bucket out in slices: two nodes never admit more than it holds, in far fewer round trips', async () => {
    // 1200 RPM: a burst of 200 refilling at 20 a second; a node holds at most 10 (5%) unused.
    const evals = [0, 0];
    const counted = clients.map((client, index) => {
      const counting = Object.create(client) as Redis;
      counting.eval = ((...args: Parameters<Redis['eval']>) => {
        evals[index] = (evals[index] ?? 0) + 1;
        return client.eval(...args);
      }) as Redis['eval'];
      return createRedisRateLimiter(counting, prefix);
    });
    const started = performance.now();
    const decisions = await Promise.all(
      Array.from({ length: 400 }, (_, index) => (counted[index % 2] as RateLimiter).take('user:4', 1200)),
    );
    const seconds = (performance.now() - started) / 1000;
    const allowed = decisions.filter((decision) => decision.allowed).length;
    // Never above what the bucket held plus what it refilled meanwhile…
    expect(allowed).toBeLessThanOrEqual(200 + Math.ceil(20 * seconds));
    // …and short of it by at most what the two nodes may hold unused.
    expect(allowed).toBeGreaterThanOrEqual(200 - 2 * 10);
    expect(decisions.find((decision) => !decision.allowed)?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((evals[0] ?? 0) + (evals[1] ?? 0)).toBeLessThan(allowed / 4);
  });

  it("keeps limiting when a group's rate crosses 60 RPM: window and bucket keep separate state", async () => {
    const node = nodes[0] as RateLimiter;
    expect((await node.take('user:3', 5)).allowed).toBe(true);
    // An administrator raises the rate: the bucket must not trip over the window's counter.
    expect((await node.take('user:3', 120)).allowed).toBe(true);
    expect(await node.peek('user:3', 120)).toBeGreaterThan(0);
    // …and lowers it again while the bucket still exists.
    expect((await node.take('user:3', 5)).allowed).toBe(true);
    expect(await node.peek('user:3', 5)).toBe(2);
  });
});
