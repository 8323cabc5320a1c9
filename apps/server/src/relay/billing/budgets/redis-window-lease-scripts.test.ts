import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { randomString } from '../../../platform/crypto.js';
import { REFUND_EXPIRED } from './redis-budget-scripts.js';
import { RENEW_WINDOWS } from './redis-window-lease-scripts.js';

/**
 * The window leases' script on its own, at chosen instants: a free part of at most the room / 8, the
 * spend counted in the window it was counted in (and dropped when that window closed), a lowered
 * allowance that takes the free part back but not the running requests' part, a counter Redis lost,
 * and a dead node's expired lease counted as used.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const T = Math.floor(Date.now() / 1000) * 1000;
const EXPIRES = T + 600_000;

describe.skipIf(!redisUrl)('Redis window lease script', () => {
  const redis = new Redis(redisUrl ?? '');
  const prefix = `onehub-test:${randomString(8)}:`;
  const bres = `${prefix}bres`;
  afterAll(() => redis.quit());

  /** A rolling counter of `length` ms allowing `requests` (stored: read from the database when missing). */
  const rolling = (length: number, requests: number, stored = '0') => ['r', length, 0, 0, stored, -1, requests, -1];
  /** The lease's 18 arguments, for the requests measure (quota and tokens not limited). */
  const lease = (id: string, start: number, spent: number, keep: number, must: number, want: number) => [
    id,
    start,
    ...[0, spent, 0],
    ...[0, keep, 0],
    ...[0, must, 0],
    ...[0, want, 0],
    ...[1, 4, 1],
    8,
  ];
  const mark = `${prefix}bflush:node`;
  let round = 0;
  const renew = (key: string, now: number, counter: (string | number)[], args: (string | number)[], again = false) => {
    if (!again) round++;
    return redis.eval(RENEW_WINDOWS, 3, bres, mark, key, now, EXPIRES, round, ...counter, ...args) as Promise<
      number[][]
    >;
  };
  const fields = async (key: string) => {
    const all = await redis.hgetall(key);
    return Object.fromEntries(Object.entries(all).map(([name, value]) => [name, Number(value)]));
  };

  it('grants at most an eighth of the room, counts the spend in its window and renews from the record', async () => {
    const key = `${prefix}b:a:day`;
    expect(await renew(key, T, rolling(10_000, 100), lease('W-a', -1, 0, 0, 0, 20))).toEqual([
      [1, T, T + 10_000, 0, 12, 0],
    ]);
    expect(await fields(key)).toMatchObject({ s: T, e: T + 10_000, r: 0, hr: 12 });
    expect(await redis.hget(bres, 'W-a')).toBe(`${EXPIRES}|0|12|0|${key}`);
    // 5 requests settled on the node, 2 running: 7 kept, and 11 more granted (88 left / 8).
    expect(await renew(key, T + 100, rolling(10_000, 100), lease('W-a', T, 5, 7, 2, 20))).toEqual([
      [1, T, T + 10_000, 0, 18, 0],
    ]);
    expect(await fields(key)).toMatchObject({ r: 5, hr: 18 });
    // The same round sent again (its reply was lost): nothing counted twice, the lease as it stands.
    expect(await renew(key, T + 100, rolling(10_000, 100), lease('W-a', T, 5, 7, 2, 20), true)).toEqual([
      [1, T, T + 10_000, 0, 18, 0],
    ]);
    expect(await fields(key)).toMatchObject({ r: 5, hr: 18 });
    // Asked for less than the minimum's worth of room: nothing more is granted, keep stays held.
    expect(await renew(key, T + 200, rolling(10_000, 30), lease('W-a', T, 0, 18, 2, 20))).toEqual([
      [1, T, T + 10_000, 0, 18, 0],
    ]);
  });

  it('drops the spend of a window that closed and holds the running part in the new one', async () => {
    const key = `${prefix}b:b:day`;
    await renew(key, T, rolling(1000, 100), lease('W-b', -1, 0, 0, 0, 20));
    // The window ended at T + 1000: its 3 requests no longer limit anything.
    expect(await renew(key, T + 1500, rolling(1000, 100), lease('W-b', T, 3, 1, 1, 0))).toEqual([
      [1, T + 1500, T + 2500, 0, 1, 0],
    ]);
    expect(await fields(key)).toMatchObject({ s: T + 1500, r: 0, hr: 1 });
  });

  it('takes back the free part when the allowance was lowered, but not the running requests’ part', async () => {
    const key = `${prefix}b:c:day`;
    await renew(key, T, rolling(10_000, 100), lease('W-c', -1, 0, 0, 0, 20));
    // 12 held, 4 spent, 3 running: keep 8; the allowance is now 6, of which 4 are used.
    expect(await renew(key, T + 10, rolling(10_000, 6), lease('W-c', T, 4, 8, 3, 20))).toEqual([
      [1, T, T + 10_000, 0, 3, 0],
    ]);
    expect(await fields(key)).toMatchObject({ r: 4, hr: 3 });
  });

  it('answers -1 for a stored counter Redis does not hold, and forgets the lease', async () => {
    const key = `${prefix}b:d:day`;
    await redis.hset(bres, 'W-d', `${EXPIRES}|0|5|0|${key}`);
    expect(await renew(key, T, rolling(10_000, 100, '1'), lease('W-d', T, 2, 3, 0, 20))).toEqual([[-1]]);
    expect(await redis.exists(key)).toBe(0);
    expect(await redis.hexists(bres, 'W-d')).toBe(0);
  });

  it('counts a dead node’s expired lease as used, not given back', async () => {
    const key = `${prefix}b:e:day`;
    await renew(key, T, rolling(10_000, 100), lease('W-e', -1, 0, 0, 0, 20));
    expect(await fields(key)).toMatchObject({ r: 0, hr: 12 });
    expect(await redis.eval(REFUND_EXPIRED, 1, bres, 'W-e', EXPIRES - 1)).toBe(0);
    expect(await redis.eval(REFUND_EXPIRED, 1, bres, 'W-e', EXPIRES + 1)).toBe(1);
    expect(await fields(key)).toMatchObject({ r: 12, hr: 0 });
    expect(await redis.hexists(bres, 'W-e')).toBe(0);
  });
});
