import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { randomString } from '../../platform/crypto.js';
import { LEASE_EXPIRES, RELEASE_LEASE, RENEW_LEASES, STALE_LEASE_MS } from './redis-lease-scripts.js';
import { REFUND_EXPIRED } from './redis-ledger-scripts.js';

/**
 * The balance lease scripts on their own: a lease taken, settled and renewed in one step, capped at
 * a share of the balance and refused below a minimum, a lease Redis lost, a limited key's balance,
 * and a dead node's lease: never given back by expiry, given back less the replayed spend.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('Redis balance lease scripts', () => {
  const redis = new Redis(redisUrl ?? '');
  const prefix = `onehub-test:lease:${randomString(8)}:`;
  afterAll(() => redis.quit());
  let nextUser = 1;

  const keys = (user: number, token = 0) => [
    `${prefix}u:${user}`,
    `${prefix}t:${token}`,
    `${prefix}res`,
    `${prefix}pending`,
    `${prefix}uh:${user}`,
    `${prefix}th:${token}`,
  ];
  interface Renewal {
    user: number;
    token?: number;
    unlimited?: number;
    mark?: number;
    spent?: number;
    requests?: number;
    keep?: number;
    must?: number;
    want: number;
    minimum?: number;
    divisor?: number;
    channels?: [number, number][];
  }
  const leaseArgs = (id: string, renewal: Renewal) => [
    id,
    renewal.user,
    renewal.token ?? 0,
    renewal.unlimited ?? 0,
    renewal.spent ?? 0,
    renewal.requests ?? 0,
    renewal.keep ?? 0,
    renewal.must ?? 0,
    renewal.want,
    renewal.minimum ?? 1,
    renewal.divisor ?? 8,
    (renewal.channels ?? []).length,
    ...(renewal.channels ?? []).flat(),
  ];
  const leaseKeys = (renewal: Renewal) => {
    const [user, token, , , userHeld, tokenHeld] = keys(renewal.user, renewal.token);
    return [user, token, userHeld, tokenHeld] as string[];
  };
  /** Settles and renews the leases in one script, under `mark`. */
  const renewAll = async (mark: number, leases: [string, Renewal][]) =>
    (
      (await redis.eval(
        RENEW_LEASES,
        2 + leases.length * 4,
        `${prefix}res`,
        `${prefix}pending`,
        ...leases.flatMap(([, renewal]) => leaseKeys(renewal)),
        'jnl1',
        mark,
        ...leases.flatMap(([id, renewal]) => leaseArgs(id, renewal)),
      )) as number[][]
    ).map((answer) => answer.map(Number));
  const renew = async (id: string, renewal: Renewal) =>
    (await renewAll(renewal.mark ?? 0, [[id, renewal]]))[0] as number[];
  const loadUser = async (quota: number) => {
    const user = nextUser++;
    await redis.mset(`${prefix}u:${user}`, quota, `${prefix}uh:${user}`, 0);
    return user;
  };
  const balance = async (user: number) => Number(await redis.get(`${prefix}u:${user}`));
  const held = async (user: number) => Number(await redis.get(`${prefix}uh:${user}`));
  const pending = async (field: string) => Number((await redis.hget(`${prefix}pending`, field)) ?? 0);

  it('takes a lease of at most a share of the balance, and settles and renews it in one step', async () => {
    const user = await loadUser(8000);
    // Wants 5000; an eighth of 8000 is all it gets.
    expect(await renew('a1', { user, want: 5000 })).toEqual([1, 0, 1000, 8000]);
    expect(await balance(user)).toBe(7000);
    expect(await held(user)).toBe(1000);
    expect(await redis.hget(`${prefix}res`, 'a1')).toBe(`${user}|0|1000|${LEASE_EXPIRES}|L:jnl1:0`);
    // 600 spent by 3 requests (400 on channel 5, 200 on 6); running requests hold 100 of the rest.
    const renewed = await renew('a1', {
      user,
      mark: 17,
      spent: 600,
      requests: 3,
      keep: 100,
      want: 500,
      channels: [
        [5, 400],
        [6, 200],
      ],
    });
    // 8000 − 600 = 7400; 100 held again, and min(500, (7400 − 100) / 8) = 500 free.
    expect(renewed).toEqual([1, 600, 600, 7400]);
    expect(await balance(user)).toBe(6800);
    expect(await held(user)).toBe(600);
    expect(await pending(`u:${user}:spent`)).toBe(600);
    expect(await pending(`u:${user}:req`)).toBe(3);
    expect(await pending('c:5')).toBe(400);
    expect(await pending('c:6')).toBe(200);
    // Its own mark: a per-request settlement's n:jnl1 cannot skip it, nor it one of those.
    expect(await pending('n:jnl1.lease')).toBe(17);
    expect(await pending('n:jnl1')).toBe(0);
    // Everything given back: the record goes, nothing stays held.
    expect(await renew('a1', { user, mark: 18, spent: 50, requests: 1, want: 0 })).toEqual([1, 50, 0, 7350]);
    expect(await redis.hexists(`${prefix}res`, 'a1')).toBe(0);
    expect([await balance(user), await held(user)]).toEqual([7350, 0]);
  });

  it('counts the spend of a flush sent twice (its reply lost) once, and renews the lease from its record', async () => {
    const user = await loadUser(8000);
    expect(await renew('d1', { user, want: 1000 })).toEqual([1, 0, 1000, 8000]);
    const flush: Renewal = { user, mark: 30, spent: 400, requests: 2, keep: 100, want: 500, channels: [[3, 400]] };
    expect(await renew('d1', flush)).toEqual([1, 400, 600, 7600]);
    // The same command again, as a client resends it after a reconnect: nothing is charged twice.
    expect(await renew('d1', flush)).toEqual([1, 0, 600, 7600]);
    expect([await balance(user), await held(user)]).toEqual([7000, 600]);
    expect(await pending(`u:${user}:spent`)).toBe(400);
    expect(await pending(`u:${user}:req`)).toBe(2);
    expect(await pending('c:3')).toBe(400);
    // The next flush, with a new mark, is counted.
    expect(await renew('d1', { user, mark: 31, spent: 50, requests: 1, want: 0 })).toEqual([1, 50, 0, 7550]);
    expect(await pending(`u:${user}:spent`)).toBe(450);
  });

  it('settles every lease of a node in one script, under one mark', async () => {
    const [first, second] = [await loadUser(800), await loadUser(1600)];
    expect(
      await renewAll(0, [
        ['m1', { user: first, want: 100 }],
        ['m2', { user: second, want: 100 }],
      ]),
    ).toEqual([
      [1, 0, 100, 800],
      [1, 0, 100, 1600],
    ]);
    const channels: [number, number][] = [[9, 10]];
    const answers = await renewAll(41, [
      ['m1', { user: first, spent: 10, requests: 1, want: 0, channels }],
      ['m2', { user: second, spent: 20, requests: 2, keep: 20, want: 100, channels: [[9, 20]] }],
    ]);
    expect(answers).toEqual([
      [1, 10, 0, 790],
      [1, 20, 120, 1580],
    ]);
    expect(await pending(`u:${first}:spent`)).toBe(10);
    expect(await pending(`u:${second}:req`)).toBe(2);
    expect(await pending('c:9')).toBe(30);
    expect(await pending('n:jnl1.lease')).toBe(41);
    expect([await balance(second), await held(second)]).toEqual([1460, 120]);
  });

  it('gives the free part back as far as the balance went below the lease, never what running requests hold', async () => {
    const user = await loadUser(8000);
    await renew('s1', { user, want: 1000 });
    // An administrator took 7500 away: the balance beside the lease is −500.
    await redis.decrby(`${prefix}u:${user}`, 7500);
    expect(await renew('s1', { user, keep: 1000, must: 200, want: 1000 })).toEqual([1, 0, 500, 500]);
    expect([await balance(user), await held(user)]).toEqual([0, 500]);
    // Taken away again: running requests keep their 200, and the balance stays below zero by the rest.
    await redis.decrby(`${prefix}u:${user}`, 700);
    expect(await renew('s1', { user, keep: 500, must: 200, want: 1000 })).toEqual([1, 0, 200, -200]);
    expect([await balance(user), await held(user)]).toEqual([-400, 200]);
  });

  it('takes no free part below the minimum: a small balance is reserved per request', async () => {
    const user = await loadUser(700);
    // An eighth of 700 is 87, below a minimum of 100: nothing is held.
    expect(await renew('b1', { user, want: 1000, minimum: 100 })).toEqual([1, 0, 0, 700]);
    expect(await redis.hexists(`${prefix}res`, 'b1')).toBe(0);
    expect([await balance(user), await held(user)]).toEqual([700, 0]);
  });

  it('holds a limited key’s balance too, and caps the lease by the smaller balance', async () => {
    const user = await loadUser(10_000);
    const token = 900 + nextUser;
    await redis.mset(`${prefix}t:${token}`, 800, `${prefix}th:${token}`, 0);
    expect(await renew('k1', { user, token, want: 5000 })).toEqual([1, 0, 100, 10_000]);
    expect(Number(await redis.get(`${prefix}t:${token}`))).toBe(700);
    expect(await renew('k1', { user, token, spent: 100, requests: 2, want: 5000 })).toEqual([1, 100, 87, 9900]);
    expect(Number(await redis.get(`${prefix}t:${token}`))).toBe(700 - 87);
    expect(Number(await redis.get(`${prefix}th:${token}`))).toBe(87);
    expect(await pending(`t:${token}`)).toBe(100);
    // A key whose balance is not loaded (its quota was set anew): the spend is settled, the lease keeps only keep.
    await redis.del(`${prefix}t:${token}`);
    expect(await renew('k1', { user, token, spent: 30, requests: 1, keep: 20, want: 5000 })).toEqual([
      -2, 30, 20, 9870,
    ]);
    expect(await redis.hget(`${prefix}res`, 'k1')).toBe(`${user}|${token}|20|${LEASE_EXPIRES}|L:jnl1:0`);
    expect(await pending(`t:${token}`)).toBe(130);
  });

  it('charges a lost lease’s spend only as far as the balance goes, and holds keep only if it fits', async () => {
    const user = await loadUser(100);
    // The node spent 300 from a lease Redis no longer has; 100 is all there is.
    expect(await renew('gone', { user, spent: 300, requests: 2, keep: 50, must: 50, want: 10 })).toEqual([
      -3, 100, 0, 0,
    ]);
    expect([await balance(user), await held(user)]).toEqual([0, 0]);
    expect(await pending(`u:${user}:spent`)).toBe(100);
  });

  it('never gives a lease back by expiry; after the replay, gives it back less the replayed spend, once', async () => {
    const user = await loadUser(8000);
    await renew('dead', { user, want: 1000 });
    expect([await balance(user), await held(user)]).toEqual([7000, 1000]);
    // A flush long after any reservation's expiry: the lease stays held.
    expect(await redis.eval(REFUND_EXPIRED, 1, `${prefix}res`, 'dead', prefix, LEASE_EXPIRES + 1)).toBe(0);
    expect([await balance(user), await held(user)]).toEqual([7000, 1000]);
    // The dead node's journal showed 300 spent beyond its lease mark (written to the database by the replay).
    const release = () => redis.eval(RELEASE_LEASE, 5, ...keys(user).filter((_, index) => index !== 3), 'dead', 300);
    expect(await release()).toBe(700);
    expect([await balance(user), await held(user)]).toEqual([7700, 0]);
    expect(await release()).toBeNull();
    expect([await balance(user), await held(user)]).toEqual([7700, 0]);
  });

  it('gives a dead node’s lease back on an administrator’s change, never a live one’s; a late replay still charges', async () => {
    const user = await loadUser(8000);
    await renew('lost', { user, want: 1000 });
    const releaseKeys = [...keys(user).filter((_, index) => index !== 3), `${prefix}lease-nodes`];
    const release = (spent: number, stale: number | '') =>
      redis.eval(RELEASE_LEASE, 6, ...releaseKeys, 'lost', spent, stale);
    // Its node renewed just now: alive, so its lease stays.
    expect(await release(0, STALE_LEASE_MS)).toBeNull();
    expect([await balance(user), await held(user)]).toEqual([7000, 1000]);
    // Ten minutes without a renewal: dead, and its journal taken as lost. All of the lease comes back, once.
    const now = Number((await redis.time())[0]) * 1000;
    await redis.hset(`${prefix}lease-nodes`, 'jnl1', now - 600_000);
    expect(await release(0, STALE_LEASE_MS)).toBe(1000);
    expect(await release(0, STALE_LEASE_MS)).toBeNull();
    expect([await balance(user), await held(user)]).toEqual([8000, 0]);
    expect(await redis.hget(`${prefix}res`, 'lost')).toBe(`${user}|0|0|${LEASE_EXPIRES}|L:jnl1:0`);
    // The journal turns up after all: its replay wrote 300 spent from the lease, which the balance now loses.
    expect(await release(300, '')).toBe(-300);
    expect([await balance(user), await held(user)]).toEqual([7700, 0]);
    expect(await redis.hexists(`${prefix}res`, 'lost')).toBe(0);
  });
});
