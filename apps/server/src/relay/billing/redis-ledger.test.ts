import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { useMigratedDatabase } from '../../../test/databases.js';
import { letsFreeModelsThrough, writesWhatEachKeyUsed } from '../../../test/ledger-cases.js';
import { insertToken, insertUser, storedQuotaOf } from '../../../test/ledger-users.js';
import {
  allowWait,
  holdsBackOnlyTheShortKey,
  holdsTheSizeOfTheMomentItFits,
  refusesAtOnceWhenWaitingCannotHelp,
  refusesAtTheBound,
  servesWaitersInOrder,
  stopsWaitingWhenTheClientLeaves,
  waitsForTheRunningRequest,
} from '../../../test/ledger-waiting-cases.js';
import { injectFaults, type RedisFaults } from '../../../test/redis-faults.js';
import { randomString } from '../../platform/crypto.js';
import { RedisQuotaLedger } from './redis-ledger.js';
import * as scripts from './redis-ledger-scripts.js';

const redisUrl = process.env.TEST_REDIS_URL;

// The shared ledger lives in Redis; without TEST_REDIS_URL there is none to test against.
describe.skipIf(!redisUrl)('Redis quota ledger shared by two nodes', () => {
  const handle = useMigratedDatabase('sqlite');
  const clients: Redis[] = [];
  const prefix = `onehub-test:ledger:${randomString(8)}:`;
  /** Each node's client, with faults only where a test asks for them (redis-faults.ts). */
  const faultsOf = new Map<RedisQuotaLedger, RedisFaults>();
  const node = (options: { reservationTtlMs?: number } = {}) => {
    const client = new Redis(redisUrl ?? '');
    clients.push(client);
    // Flushing only when a test asks, so each test decides when the database sees the amounts.
    const ledger = new RedisQuotaLedger(handle, client, { prefix, flushIntervalMs: 3_600_000, ...options });
    faultsOf.set(ledger, injectFaults(client));
    return ledger;
  };
  const faultyNode = () => {
    const ledger = node();
    return { ledger, faults: faultsOf.get(ledger) as RedisFaults };
  };
  let nextUser = 1;
  const newUser = (quota: number) => insertUser(handle, nextUser++, quota);
  const stored = (id: number) => storedQuotaOf(handle, id);

  afterAll(async () => {
    for (const client of clients) await client.quit();
  });

  it('never lets two nodes together reserve more than the balance', async () => {
    const [first, second] = [node(), node()];
    const user = await newUser(1000);
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) => (index % 2 ? first : second).reserve(user, null, 100)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    const refused = results.find((result) => result.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ details: { code: 'insufficient_quota' } });
  });

  it('settles once, refunds the rest, and writes the charge to the database once', async () => {
    const [first, second] = [node(), node()];
    const user = await newUser(1000);
    const reservation = await first.reserve(user, null, 300);
    expect(await first.settle(reservation, 120, 7)).toEqual({ charged: 120, shortfall: 0, balance: 880 });
    expect(await first.settle(reservation, 120, 7)).toEqual({ charged: 0, shortfall: 0 });
    // The other node can now reserve everything that is left: 1000 − 120.
    await second.reserve(user, null, 880);
    await expect(second.reserve(user, null, 1)).rejects.toMatchObject({ details: { code: 'insufficient_quota' } });
    await second.flush();
    await first.flush();
    expect(await stored(user)).toBe(880);
  });

  it('keeps what a node settled even if that node dies before writing it', async () => {
    const [doomed, survivor] = [node(), node()];
    const user = await newUser(500);
    await doomed.settle(await doomed.reserve(user, null, 200), 150);
    // `doomed` never flushes; the amounts wait in Redis for any other node.
    await survivor.flush();
    expect(await stored(user)).toBe(350);
  });

  it('writes a batch stranded by a node that died mid-write exactly once', async () => {
    const [first, second] = [node(), node()];
    const user = await newUser(1000);
    await first.settle(await first.reserve(user, null, 100), 100);
    // A node took the pending amounts aside, wrote them to the database, and died before tidying up.
    const redis = clients[0] as Redis;
    const batchId = `dead-${randomString(6)}`;
    await redis.eval(
      scripts.TAKE_PENDING,
      4,
      `${prefix}pending`,
      `${prefix}inflight`,
      `${prefix}settled`,
      `${prefix}settled:old`,
      batchId,
      `${prefix}batch:${batchId}`,
      Date.now(),
    );
    const fields = await redis.hgetall(`${prefix}batch:${batchId}`);
    expect(fields[`u:${user}:spent`]).toBe('100');
    await second.flush();
    expect(await stored(user)).toBe(900);
    // Running recovery again (another node, a retry) must not charge twice.
    await redis.sadd(`${prefix}inflight`, batchId);
    await redis.hset(`${prefix}batch:${batchId}`, fields);
    await first.flush();
    expect(await stored(user)).toBe(900);
  });

  it('gives back the reservations of a node that never settled them', async () => {
    const doomed = node({ reservationTtlMs: 1 });
    const survivor = node();
    const user = await newUser(100);
    await doomed.reserve(user, null, 100);
    await expect(survivor.reserve(user, null, 100)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await survivor.flush();
    // The refund leaves no trace in the balance a settlement reports.
    expect(await survivor.settle(await survivor.reserve(user, null, 100), 30)).toMatchObject({ balance: 70 });
  });

  it('reports the balance after settled work, whatever other nodes hold open', async () => {
    const [first, second] = [node(), node()];
    const user = await newUser(1000);
    const early = await first.reserve(user, null, 300);
    const late = await second.reserve(user, null, 200);
    // 200 is still held by the other node's request; the balance after this charge is 1000 − 120.
    expect(await first.settle(early, 120)).toMatchObject({ charged: 120, balance: 880 });
    expect(await second.settle(late, 50)).toMatchObject({ charged: 50, balance: 830 });
  });

  it('computes the held sum of a balance loaded by an older version that kept none', async () => {
    const ledger = node();
    const user = await newUser(1000);
    const open = await ledger.reserve(user, null, 300);
    // An older node loaded this balance: it has no held sum.
    await (clients[0] as Redis).del(`${prefix}uh:${user}`);
    const next = await ledger.reserve(user, null, 100);
    await expect(ledger.reserve(user, null, 601)).rejects.toMatchObject({ details: { code: 'insufficient_quota' } });
    expect(await ledger.settle(next, 40)).toMatchObject({ balance: 960 });
    expect(await ledger.settle(open, 10)).toMatchObject({ balance: 950 });
  });

  it('never charges beyond the balance when an answer outgrows its reservation', async () => {
    const ledger = node();
    const user = await newUser(100);
    const reservation = await ledger.reserve(user, null, 60);
    expect(await ledger.settle(reservation, 500)).toEqual({ charged: 100, shortfall: 400, balance: 0 });
    await ledger.flush();
    expect(await stored(user)).toBe(0);
  });

  it('follows top-ups by their delta and reloads an edited key with open reservations held', async () => {
    const ledger = node();
    const user = await newUser(100);
    const token = { id: await insertToken(handle, user, { remainQuota: 50, unlimited: false }) };
    const open = await ledger.reserve(user, { id: token.id, limited: true }, 40);
    await expect(ledger.reserve(user, { id: token.id, limited: true }, 20)).rejects.toMatchObject({
      message: expect.stringContaining('API key'),
    });
    // The owner raises the key's quota to 80; 40 of it is still held by the open request.
    await handle.db.updateTable('tokens').set({ remain_quota: 80 }).where('id', '=', token.id).execute();
    ledger.invalidateToken(token.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await ledger.reserve(user, { id: token.id, limited: true }, 40);
    await expect(ledger.reserve(user, { id: token.id, limited: true }, 1)).rejects.toThrow();
    // An administrator adds 1000 to the user.
    await handle.db.updateTable('users').set({ quota: 1100 }).where('id', '=', user).execute();
    ledger.invalidateUser(user, 1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await ledger.reserve(user, null, 1000);
    await ledger.settle(open, 0);
  });

  it('wakes a waiter on one node when the other node settles (by its poll)', async () => {
    const [first, second] = [node(), node()];
    const user = await newUser(100);
    const running = await second.reserve(user, null, 70);
    const waiting = first.reserve(user, null, 60, allowWait(60_000).waitFor);
    // Only the other node settles: the waiting node learns of it by trying again.
    expect(await second.settle(running, 30)).toMatchObject({ charged: 30 });
    const held = await waiting;
    expect(held.amount).toBe(60);
    expect(await first.settle(held, 60)).toMatchObject({ charged: 60, balance: 10 });
  });

  it('computes the held sum of a key balance loaded by an older version that kept none', async () => {
    const ledger = node();
    const user = await newUser(1000);
    const key = { id: await insertToken(handle, user, { remainQuota: 100, unlimited: false }), limited: true };
    const open = await ledger.reserve(user, key, 60);
    // An older node loaded this key's balance: it has no held sum.
    await (clients[0] as Redis).del(`${prefix}th:${key.id}`);
    // 40 free, 60 held: waiting helps for 90 (refused only at the bound), not for 101 (refused at once).
    const { waitFor, state } = allowWait(60_000);
    await expect(ledger.reserve(user, key, 101, waitFor)).rejects.toMatchObject({
      message: expect.stringContaining('API key'),
    });
    expect(state.asked).toBe(0);
    const waiting = ledger.reserve(user, key, 90, waitFor);
    await ledger.settle(open, 10);
    expect((await waiting).amount).toBe(90);
  });

  it('writes what each key used: a limited key’s balance and use, an unlimited key’s use only', () =>
    writesWhatEachKeyUsed({ ledger: node(), handle, newUser }));

  it('lets a free model through at a zero balance, and still refuses what costs anything', () =>
    letsFreeModelsThrough({ ledger: node(), handle, newUser }));

  describe('commands sent again after a lost reply (a dropped connection): the money moves once', () => {
    it('charges a settlement sent twice once, and answers what the first run charged', async () => {
      const { ledger, faults } = faultyNode();
      const user = await newUser(1000);
      const reservation = await ledger.reserve(user, null, 300);
      faults.resend(scripts.SETTLE);
      expect(await ledger.settle(reservation, 120, 7)).toEqual({ charged: 120, shortfall: 0, balance: 880 });
      await ledger.flush();
      expect(await stored(user)).toBe(880);
      // Sent again once more after its batch went to the database: its marker is kept there still.
      const [sent] = faults.calls(scripts.SETTLE) as [unknown[]];
      const again = (await clients[0]?.eval(scripts.SETTLE, ...(sent as [number, ...string[]]))) as number[];
      expect(again.map(Number)).toEqual([120, 880]);
      await ledger.flush();
      expect(await stored(user)).toBe(880);
      expect(await ledger.reserve(user, null, 880)).toMatchObject({ amount: 880 });
    });

    it('sends a settlement again itself when its reply is lost, and charges it once', async () => {
      const { ledger, faults } = faultyNode();
      const user = await newUser(1000);
      const reservation = await ledger.reserve(user, null, 300);
      // Redis runs it and the caller hears an error (ioredis gave up on the connection).
      faults.fail(scripts.SETTLE);
      expect(await ledger.settle(reservation, 120, 7)).toEqual({ charged: 120, shortfall: 0, balance: 880 });
      const [first, second] = faults.calls(scripts.SETTLE);
      expect(second).toEqual(first);
      await ledger.flush();
      expect(await stored(user)).toBe(880);
      expect(await ledger.reserve(user, null, 880)).toMatchObject({ amount: 880 });
    });

    it('charges a settlement whose reservation expired from what is left, once', async () => {
      const { ledger, faults } = faultyNode();
      const user = await newUser(1000);
      const reservation = await ledger.reserve(user, null, 300);
      // Given back as expired (the node took longer than the reservation's life): nothing held now.
      await clients[0]?.eval(scripts.REFUND_EXPIRED, 1, `${prefix}res`, reservation.id ?? '', prefix, 9e15);
      faults.resend(scripts.SETTLE);
      expect(await ledger.settle(reservation, 200)).toEqual({ charged: 200, shortfall: 0, balance: 800 });
      await ledger.flush();
      expect(await stored(user)).toBe(800);
    });

    it('holds a reservation sent twice once, even when the second run finds the balance short', async () => {
      const { ledger, faults } = faultyNode();
      const user = await newUser(1000);
      faults.resend(scripts.RESERVE);
      // The second run sees 400 left beside the 600 it held: short, were its own hold not recognised.
      const first = await ledger.reserve(user, null, 600);
      faults.resend(scripts.RESERVE);
      const second = await ledger.reserve(user, null, 300);
      const third = await ledger.reserve(user, null, 100);
      await expect(ledger.reserve(user, null, 1)).rejects.toMatchObject({ details: { code: 'insufficient_quota' } });
      for (const reservation of [first, second, third]) await ledger.settle(reservation, 0);
      expect(Number(await clients[0]?.get(`${prefix}uh:${user}`))).toBe(0);
      expect(Number(await clients[0]?.get(`${prefix}u:${user}`))).toBe(1000);
    });

    it('applies an administrator’s top-up sent twice once', async () => {
      const { ledger, faults } = faultyNode();
      const user = await newUser(1000);
      await ledger.settle(await ledger.reserve(user, null, 100), 100);
      await handle.db.updateTable('users').set({ quota: 2000 }).where('id', '=', user).execute();
      faults.resend(scripts.ADJUST);
      ledger.invalidateUser(user, 1000);
      await faults.idle();
      expect(faults.calls(scripts.ADJUST)).toHaveLength(1);
      expect(await ledger.reserve(user, null, 1900)).toMatchObject({ amount: 1900 });
      await expect(ledger.reserve(user, null, 1)).rejects.toMatchObject({ details: { code: 'insufficient_quota' } });
    });
  });

  describe('waiting for quota the user’s running requests hold', () => {
    it('waits for the running request and takes what it gave back', () =>
      waitsForTheRunningRequest({ ledger: node(), handle, newUser }));
    it('refuses with insufficient_quota when the bound is reached', () =>
      refusesAtTheBound({ ledger: node(), handle, newUser }));
    it('refuses at once when nothing runs or it would not fit anyway', () =>
      refusesAtOnceWhenWaitingCannotHelp({ ledger: node(), handle, newUser }));
    it('stops waiting when the client leaves, holding nothing', () =>
      stopsWaitingWhenTheClientLeaves({ ledger: node(), handle, newUser }));
    it('serves waiters first come, first served', () => servesWaitersInOrder({ ledger: node(), handle, newUser }));
    it('holds back only the key that is short', () => holdsBackOnlyTheShortKey({ ledger: node(), handle, newUser }));
    it('holds the size of the moment it fits', () =>
      holdsTheSizeOfTheMomentItFits({ ledger: node(), handle, newUser }));
  });
});
