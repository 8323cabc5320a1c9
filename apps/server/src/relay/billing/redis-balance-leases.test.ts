import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { insertUser, storedQuotaOf } from '../../../test/ledger-users.js';
import { injectFaults } from '../../../test/redis-faults.js';
import { insertLogRows } from '../../api/log/writer.js';
import { randomString } from '../../platform/crypto.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../platform/db/index.js';
import { Journal } from '../../platform/journal/journal.js';
import { replayJournal } from './journal-replay.js';
import type { Reservation } from './ledger.js';
import { RENEW_LEASES } from './redis-lease-scripts.js';
import { RedisQuotaLedger } from './redis-ledger.js';
import { TAKE_PENDING } from './redis-ledger-scripts.js';

const redisUrl = process.env.TEST_REDIS_URL;
const NEVER = 3_600_000;

/**
 * Balance leases through the ledger: nodes serve steady requests from slices of the balance held
 * in Redis, and together never charge more than the balance; a node killed with a lease leaves its
 * slice held until its journal is replayed, and then the balance is exact (or, its journal lost,
 * until an administrator changes the balance); a flush Redis ran whose call failed, or a settlement
 * made while a flush is in flight, leaves the node's charges and the balance agreeing.
 */
describe.skipIf(!redisUrl)('balance leases shared by nodes', () => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;
  const clients: Redis[] = [];
  let nextUser = 1;

  /** A node with leases and a crash journal of its own (only a node with a journal takes leases). */
  const node = (prefix: string, options: { journal?: Journal; leaseFlushMs?: number } = {}) => {
    const client = new Redis(redisUrl ?? '');
    clients.push(client);
    // Faults happen only where a test asks for them (redis-faults.ts).
    const faults = injectFaults(client);
    const journal =
      options.journal ??
      new Journal({ directory: mkdtempSync(join(tmpdir(), 'one-hub-leases-')), fsyncIntervalMs: 1000 });
    const leaseFlushMs = options.leaseFlushMs ?? 10;
    const ledger = new RedisQuotaLedger(handle, client, { prefix, flushIntervalMs: NEVER, leaseFlushMs, journal });
    return { ledger, client, faults };
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase('sqlite');
    handle = openDatabase(testDatabase.target);
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await handle?.close();
    await testDatabase?.drop();
  });

  /** Requests of 100 at most `count` times (4 at once), each costing 40..160; stops after 20 refusals in a row. */
  async function spend(ledger: RedisQuotaLedger, user: number, count: number) {
    let charged = 0;
    let leased = 0;
    let refusals = 0;
    let started = 0;
    const worker = async () => {
      while (started < count && refusals < 20) {
        started++;
        let reservation: Reservation;
        try {
          reservation = await ledger.reserve(user, null, 100);
        } catch {
          refusals++;
          // A turn of the event loop, so the other workers' settlements land before the next try.
          await new Promise(setImmediate);
          continue;
        }
        refusals = 0;
        if (reservation.leaseKey !== undefined) leased++;
        await new Promise((resolve) => setImmediate(resolve));
        const result = await ledger.settle(reservation, 40 + ((started * 37) % 121), 3);
        expect(result.charged).toBeGreaterThanOrEqual(0);
        charged += result.charged;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return { charged, leased };
  }

  it('two nodes spending at once from one balance charge exactly what it had, never more', async () => {
    const prefix = `onehub-test:leases:${randomString(8)}:`;
    const start = 60_000;
    const user = await insertUser(handle, nextUser++, start);
    const [first, second] = [node(prefix), node(prefix)];
    const [a, b] = await Promise.all([spend(first.ledger, user, 1500), spend(second.ledger, user, 1500)]);
    // Leases served requests on both nodes.
    expect(a.leased).toBeGreaterThan(0);
    expect(b.leased).toBeGreaterThan(0);
    await first.ledger.close();
    await second.ledger.close();
    const stored = await storedQuotaOf(handle, user);
    expect(stored).toBeGreaterThanOrEqual(0);
    expect(stored + a.charged + b.charged).toBe(start);
    // Nothing stays held: a third node can reserve all that is left, and no more.
    const third = node(prefix).ledger;
    if (stored > 0) await third.reserve(user, null, stored);
    await expect(third.reserve(user, null, 1)).rejects.toMatchObject({ details: { code: 'insufficient_quota' } });
  });

  it('takes no lease without a crash journal: nothing could give a killed node’s lease back', async () => {
    const prefix = `onehub-test:leases:${randomString(8)}:`;
    const user = await insertUser(handle, nextUser++, 60_000);
    const client = new Redis(redisUrl ?? '');
    clients.push(client);
    const ledger = new RedisQuotaLedger(handle, client, { prefix, flushIntervalMs: NEVER, leaseFlushMs: 10 });
    const { charged, leased } = await spend(ledger, user, 300);
    expect(leased).toBe(0);
    await ledger.close();
    expect(await storedQuotaOf(handle, user)).toBe(60_000 - charged);
  });

  /** A node that spends until it serves from a lease, then a little more from it, and is killed: what it charged. */
  async function killedWithLease(prefix: string, user: number, journal: Journal): Promise<number> {
    const doomed = node(prefix, { journal });
    let { charged, leased } = await spend(doomed.ledger, user, 60);
    for (let round = 0; leased < 8 && round < 50; round++) {
      const more = await spend(doomed.ledger, user, 20);
      charged += more.charged;
      leased += more.leased;
    }
    expect(leased).toBeGreaterThanOrEqual(8);
    journal.commit();
    // Killed: its connection gone, nothing more reaches Redis from it.
    doomed.client.disconnect();
    return charged;
  }

  it('keeps a killed node’s lease held until its journal is replayed, then the balance is exact', async () => {
    const prefix = `onehub-test:leases:${randomString(8)}:`;
    const start = 100_000;
    const user = await insertUser(handle, nextUser++, start);
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-leases-'));
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    const charged = await killedWithLease(prefix, user, journal);
    const survivor = node(prefix).ledger;
    await survivor.flush();
    expect(Number(await (clients[0] as Redis).get(`${prefix}uh:${user}`))).toBeGreaterThan(0);
    // The survivor cannot take what is left: the lease's free part stays held (its flush gives back nothing expired).
    await expect(survivor.reserve(user, null, start - charged)).rejects.toMatchObject({
      details: { code: 'insufficient_quota' },
    });
    await replayJournal(handle, directory, insertLogRows, {
      flushShared: () => survivor.flushAll(),
      releaseLeases: (ids, spent) => survivor.releaseLeases(ids, spent),
    });
    expect(await storedQuotaOf(handle, user)).toBe(start - charged);
    const rest = await survivor.reserve(user, null, start - charged);
    await expect(survivor.reserve(user, null, 1)).rejects.toMatchObject({ details: { code: 'insufficient_quota' } });
    await survivor.settle(rest, 0);
  });

  it('gives a dead node’s lease back when an administrator changes the balance and its journal is lost', async () => {
    const prefix = `onehub-test:leases:${randomString(8)}:`;
    const user = await insertUser(handle, nextUser++, 100_000);
    const journal = new Journal({ directory: mkdtempSync(join(tmpdir(), 'one-hub-leases-')), fsyncIntervalMs: 1000 });
    await killedWithLease(prefix, user, journal);
    const survivor = node(prefix).ledger;
    await survivor.flush();
    const redis = clients[0] as Redis;
    expect(Number(await redis.get(`${prefix}uh:${user}`))).toBeGreaterThan(0);
    // Its journal is never replayed (its data folder is gone), and it renewed nothing for ten minutes.
    const now = Number((await redis.time())[0]) * 1000;
    await redis.hset(`${prefix}lease-nodes`, journal.id, now - 600_000);
    // An administrator adds 5,000: the balance is what the database holds, nothing stays held.
    const stored = (await storedQuotaOf(handle, user)) + 5000;
    await handle.db.updateTable('users').set({ quota: stored }).where('id', '=', user).execute();
    survivor.invalidateUser(user, 5000);
    await vi.waitFor(async () => expect(Number(await redis.get(`${prefix}uh:${user}`))).toBe(0));
    const all = await survivor.reserve(user, null, stored);
    await expect(survivor.reserve(user, null, 1)).rejects.toMatchObject({ details: { code: 'insufficient_quota' } });
    await survivor.settle(all, 0);
  });

  // Flushes that go wrong on the way: what the node reports as charged (its log rows) is what the balance lost.
  /** Reserves 100 until a reservation comes from the lease (the second: a lease is taken after two misses). */
  async function leased(ledger: RedisQuotaLedger, user: number, charges: number[]): Promise<Reservation> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const reservation = await ledger.reserve(user, null, 100);
      if (reservation.leaseKey !== undefined) return reservation;
      charges.push((await ledger.settle(reservation, 100)).charged);
    }
    throw new Error('no lease was taken');
  }

  it('sends a failed flush again as it was, so a spend Redis counted is not counted twice', async () => {
    const prefix = `onehub-test:lease-faults:${randomString(8)}:`;
    const start = 80_000;
    const user = await insertUser(handle, nextUser++, start);
    const { ledger, faults } = node(prefix, { leaseFlushMs: NEVER });
    const charges: number[] = [];
    const reservation = await leased(ledger, user, charges);
    charges.push((await ledger.settle(reservation, 100)).charged);
    // Redis runs the flush; the node hears an error (the connection dropped before the reply).
    faults.fail(RENEW_LEASES);
    await expect(ledger.flush()).rejects.toThrow('Connection is closed.');
    const failed = faults.calls(RENEW_LEASES).length - 1;
    await ledger.flush();
    // The next call is the failed one again, to the letter: the same spend under the same lease mark.
    expect(faults.calls(RENEW_LEASES)[failed + 1]).toEqual(faults.calls(RENEW_LEASES)[failed]);
    await ledger.close();
    expect(await storedQuotaOf(handle, user)).toBe(start - charges.reduce((sum, charged) => sum + charged, 0));
  });

  it('lets an answer that outgrew its reservation wait for a flush in flight, then charges what Redis charges too', async () => {
    const prefix = `onehub-test:lease-faults:${randomString(8)}:`;
    const user = await insertUser(handle, nextUser++, 80_000);
    const { ledger, faults } = node(prefix, { leaseFlushMs: NEVER });
    const charges: number[] = [];
    const running = await leased(ledger, user, charges);
    const other = await ledger.reserve(user, null, 100);
    expect(other.leaseKey).toBeDefined();
    charges.push((await ledger.settle(other, 50)).charged);
    // An administrator on another node takes 79,000 away: the balance is now below this node's lease.
    await handle.db.updateTable('users').set({ quota: 1000 }).where('id', '=', user).execute();
    const admin = node(prefix);
    admin.ledger.invalidateUser(user, -79_000);
    await admin.faults.idle();
    // The flush that gives the lease's free part back is in flight (Redis ran it) when the answer outgrows its reservation.
    const flight = faults.hold(RENEW_LEASES);
    const flushing = ledger.flush();
    await flight.ran;
    let settled = false;
    const settling = ledger.settle(running, 1000).finally(() => {
      settled = true;
    });
    // It waits for the flush: the free part it would take from may be on its way back.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    flight.release();
    await flushing;
    const result = await settling;
    charges.push(result.charged);
    expect(result.shortfall).toBe(1000 - result.charged);
    await ledger.close();
    const stored = await storedQuotaOf(handle, user);
    expect(stored).toBeGreaterThanOrEqual(0);
    expect(stored + charges.reduce((sum, charged) => sum + charged, 0)).toBe(1000);
  });

  it('a flush puts the lease spend in the database also while another node’s round holds the flush lock', async () => {
    const prefix = `onehub-test:lease-faults:${randomString(8)}:`;
    const user = await insertUser(handle, nextUser++, 80_000);
    const [first, second] = [node(prefix, { leaseFlushMs: NEVER }), node(prefix, { leaseFlushMs: NEVER })];
    const charges: number[] = [];
    const reservation = await leased(first.ledger, user, charges);
    charges.push((await first.ledger.settle(reservation, 100)).charged);
    // The second node's round holds the lock, the pending amounts taken aside before the lease spend reached them.
    const taking = second.faults.hold(TAKE_PENDING);
    const secondFlush = second.ledger.flush();
    await taking.ran;
    const lockTries = vi.spyOn(first.client, 'set');
    const firstFlush = first.ledger.flush();
    // That round ends only once the first node's flush has found the lock taken.
    await vi.waitFor(() =>
      expect(lockTries).toHaveBeenCalledWith(`${prefix}flush-lock`, expect.anything(), 'PX', 30_000, 'NX'),
    );
    taking.release();
    await Promise.all([firstFlush, secondFlush]);
    expect(await storedQuotaOf(handle, user)).toBe(80_000 - charges.reduce((sum, charged) => sum + charged, 0));
  });
});
