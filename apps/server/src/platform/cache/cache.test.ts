import { afterAll, describe, expect, it } from 'vitest';
import { randomString } from '../crypto.js';
import { type Cache, createMemoryCache, createRedisCache } from './index.js';
import { createRedisClient } from './redis.js';

const redisUrl = process.env.TEST_REDIS_URL;
const caches: Array<[string, () => Cache]> = [
  ['memory', () => createMemoryCache()],
  ...(redisUrl
    ? ([['redis', () => createRedisCache(redisUrl, `onehub-test:${randomString(8)}:`)]] as Array<[string, () => Cache]>)
    : []),
];

describe.each(caches)('%s cache', (_kind, create) => {
  const cache = create();
  afterAll(() => cache.close());

  it('stores, reads and deletes values', async () => {
    expect(await cache.get('a')).toBeUndefined();
    await cache.set('a', 'one');
    expect(await cache.get('a')).toBe('one');
    await cache.delete('a');
    expect(await cache.get('a')).toBeUndefined();
  });

  it('expires values after their time to live', async () => {
    await cache.set('short', 'x', 1);
    expect(await cache.get('short')).toBe('x');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await cache.get('short')).toBeUndefined();
  });

  it('counts atomically under concurrency', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => cache.increment('counter', 60)));
    expect(results.sort((left, right) => left - right)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  });

  it('deletes a value only while it matches, for exactly one of several racing callers', async () => {
    await cache.set('code', 'abc123', 60);
    expect(await cache.deleteIfEquals('code', 'wrong')).toBe(false);
    expect(await cache.get('code')).toBe('abc123');
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.deleteIfEquals('code', 'abc123')));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await cache.get('code')).toBeUndefined();
  });

  it('sets a lease for exactly one of several racing callers, and again once it is released', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => cache.setIfAbsent('lease', `n${index}`, 60)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const holder = await cache.get('lease');
    expect(holder).toBe(`n${results.indexOf(true)}`);
    expect(await cache.setIfAbsent('lease', 'late', 60)).toBe(false);
    expect(await cache.deleteIfEquals('lease', holder ?? '')).toBe(true);
    expect(await cache.setIfAbsent('lease', 'late', 60)).toBe(true);
  });

  it('delivers published invalidations to subscribers', async () => {
    let resolveMessage: (message: string) => void = () => {};
    const received = new Promise<string>((resolve) => {
      resolveMessage = resolve;
    });
    await cache.subscribe('topic', (message) => resolveMessage(message));
    await cache.publish('topic', 'hello');
    expect(await received).toBe('hello');
  });
});

describe.skipIf(!redisUrl)('redis cache after its subscriber connection drops', () => {
  const prefix = `onehub-test:${randomString(8)}:`;
  const cache = createRedisCache(redisUrl ?? '', prefix);
  const admin = createRedisClient(redisUrl ?? '');
  afterAll(async () => {
    await cache.close();
    await admin.quit();
  });

  it('says notices may have been missed once it listens again, and hears new ones', async () => {
    const heard: string[] = [];
    await cache.subscribe('topic', (message) => heard.push(message));
    let resubscribed = 0;
    cache.onResubscribed?.(() => {
      resubscribed += 1;
    });
    const clients = (await admin.client('LIST')) as string;
    const line = clients.split('\n').find((entry) => entry.includes(` name=${prefix}subscriber `));
    const id = /(?:^|\s)id=(\d+)/.exec(line ?? '')?.[1];
    expect(id).toBeDefined();
    await admin.client('KILL', 'ID', id ?? '');
    await expect.poll(() => resubscribed, { timeout: 5000 }).toBe(1);
    await expect
      .poll(
        async () => {
          await cache.publish('topic', 'after');
          return heard.includes('after');
        },
        { timeout: 5000 },
      )
      .toBe(true);
  });
});

describe('memory cache expiry on a fake clock', () => {
  it('uses the clock it is given', async () => {
    let now = 0;
    const cache = createMemoryCache(() => now);
    await cache.set('k', 'v', 10);
    now = 9_999;
    expect(await cache.get('k')).toBe('v');
    now = 10_000;
    expect(await cache.get('k')).toBeUndefined();
  });

  it('sweeps entries that expired unread, so keys chosen by clients cannot pile up', async () => {
    let now = 0;
    const cache = createMemoryCache(() => now);
    for (let index = 0; index < 5_000; index++) await cache.increment(`sign-in:${index}`, 60);
    now = 60_000;
    for (let index = 0; index < 5_000; index++) await cache.increment(`turnstile:${index}`, 60);
    // Without sweeping, the 5,000 expired counters would still be held beside the 5,000 live ones.
    expect(cache.size).toBeLessThan(7_000);
    expect(await cache.get('turnstile:4999')).toBe('1');
  });
});
