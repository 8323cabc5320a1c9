import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { randomString } from '../../../platform/crypto.js';
import { HOLD, SETTLE, UNCOUNT } from './redis-budget-scripts.js';

/**
 * The budget scripts on their own, at chosen instants (the ledger passes Date.now()): windows that
 * roll, a refusal that leaves the windows it rolled rolled and holds nothing, a counter made by a
 * settlement, each window's expiry a week past its end, and each script sent twice (a reply lost,
 * the command sent again after a reconnect) counting once.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const WEEK = 604_800_000;
// Real instants: a window's key expires a week past its end, which must lie ahead.
const T = Math.floor(Date.now() / 1000) * 1000;

describe.skipIf(!redisUrl)('Redis budget window scripts', () => {
  const redis = new Redis(redisUrl ?? '');
  const prefix = `onehub-test:${randomString(8)}:`;
  afterAll(() => redis.quit());

  /** A rolling counter of `length` ms, not read from the database, allowing `requests`. */
  const rolling = (length: number, requests: number) => ['r', length, 0, 0, '0', -1, requests, -1];
  const hold = (keys: string[], now: number, id: string, counters: (string | number)[][]) =>
    redis.eval(HOLD, keys.length + 1, ...keys, `${prefix}bres`, now, id, now + 3_600_000, 5, 1, 7, ...counters.flat());
  const settle = (keys: string[], now: number, id: string, counters: (string | number)[][]) =>
    redis.eval(SETTLE, keys.length + 1, ...keys, `${prefix}bres`, now, id, 4, 1, 6, 5, 1, 7, ...counters.flat());
  const fields = async (key: string) => {
    const all = await redis.hgetall(key);
    return Object.fromEntries(Object.entries(all).map(([name, value]) => [name, Number(value)]));
  };

  it('holds, settles and rolls a window, each window expiring a week past its end', async () => {
    const key = `${prefix}b:a:day`;
    const counters = [rolling(1000, 10)];
    expect(await hold([key], T + 10_000, 'h1', counters)).toEqual([1]);
    expect(await fields(key)).toEqual({ s: T + 10_000, e: T + 11_000, q: 0, r: 0, t: 0, hq: 5, hr: 1, ht: 7 });
    expect(await redis.pexpiretime(key)).toBe(T + 11_000 + WEEK);
    expect(await settle([key], T + 10_500, 'h1', counters)).toEqual([4, T + 10_000]);
    expect(await fields(key)).toEqual({ s: T + 10_000, e: T + 11_000, q: 4, r: 1, t: 6, hq: 0, hr: 0, ht: 0 });
    // The window ended: the next hold opens a new one and counts from zero.
    expect(await hold([key], T + 12_000, 'h2', counters)).toEqual([1]);
    expect(await fields(key)).toEqual({ s: T + 12_000, e: T + 13_000, q: 0, r: 0, t: 0, hq: 5, hr: 1, ht: 7 });
    expect(await redis.pexpiretime(key)).toBe(T + 13_000 + WEEK);
  });

  it('refuses past a limit: holds nothing, and the windows it rolled stay rolled', async () => {
    const first = `${prefix}b:b:day`;
    const second = `${prefix}b:b:week`;
    const counters = [rolling(1000, 10), rolling(5000, 1)];
    expect(await hold([first, second], T + 20_000, 'h3', counters)).toEqual([1]);
    expect(await settle([first, second], T + 20_100, 'h3', counters)).toEqual([4, T + 20_000, T + 20_000]);
    // Later, the first window has ended; the second allows one request and has counted one.
    expect(await hold([first, second], T + 21_500, 'h4', counters)).toEqual([0, 2, 'r', T + 25_000]);
    expect(await fields(first)).toEqual({ s: T + 21_500, e: T + 22_500, q: 0, r: 0, t: 0, hq: 0, hr: 0, ht: 0 });
    expect(await fields(second)).toEqual({ s: T + 20_000, e: T + 25_000, q: 4, r: 1, t: 6, hq: 0, hr: 0, ht: 0 });
    expect(await redis.hexists(`${prefix}bres`, 'h4')).toBe(0);
  });

  it('asks for a stored counter to be loaded, writing nothing', async () => {
    const stored = `${prefix}b:c:day`;
    const counters = [['r', 1000, 0, 0, '1', -1, 10, -1]];
    expect(await hold([stored], T + 30_000, 'h5', counters)).toEqual([-1, 1]);
    expect(await redis.exists(stored)).toBe(0);
  });

  it('counts a settlement whose counter is gone in a new window, without a hold to take off', async () => {
    const key = `${prefix}b:d:day`;
    expect(await settle([key], T + 40_000, 'never-held', [rolling(1000, 10)])).toEqual([4, T + 40_000]);
    expect(await fields(key)).toEqual({ s: T + 40_000, e: T + 41_000, q: 4, r: 1, t: 6 });
    expect(await redis.pexpiretime(key)).toBe(T + 41_000 + WEEK);
  });

  it('holds once when a hold is sent twice, whether its second run alone would fit or be refused', async () => {
    // With one request allowed (e) the second run sees its own hold and would refuse, were it not
    // recognised; with ten (f) it would hold again.
    for (const [name, requests] of [
      ['e', 1],
      ['f', 10],
    ] as const) {
      const key = `${prefix}b:${name}:day`;
      const counters = [rolling(1000, requests)];
      expect(await hold([key], T + 50_000, `h7${name}`, counters)).toEqual([1]);
      expect(await hold([key], T + 50_000, `h7${name}`, counters)).toEqual([1]);
      expect(await fields(key)).toEqual({ s: T + 50_000, e: T + 51_000, q: 0, r: 0, t: 0, hq: 5, hr: 1, ht: 7 });
    }
  });

  it('counts a settlement sent twice once, and answers the second run as the first', async () => {
    const key = `${prefix}b:h:day`;
    const counters = [rolling(1000, 1)];
    expect(await hold([key], T + 50_000, 'h10', counters)).toEqual([1]);
    expect(await settle([key], T + 50_100, 'h10', counters)).toEqual([4, T + 50_000]);
    expect(await settle([key], T + 50_100, 'h10', counters)).toEqual([4, T + 50_000]);
    expect(await fields(key)).toEqual({ s: T + 50_000, e: T + 51_000, q: 4, r: 1, t: 6, hq: 0, hr: 0, ht: 0 });
  });

  it('takes use back once when the same take-back is sent twice', async () => {
    const key = `${prefix}b:g:day`;
    const counters = [rolling(1000, 10)];
    await hold([key], T + 70_000, 'h9', counters);
    await settle([key], T + 70_100, 'h9', counters);
    const uncount = () => redis.eval(UNCOUNT, 2, key, `${prefix}buncounted:u1`, T + 70_000, 4, 1, 6);
    expect(await uncount()).toBe(1);
    expect(await uncount()).toBe(0);
    expect(await fields(key)).toMatchObject({ q: 0, r: 0, t: 0 });
  });
});
