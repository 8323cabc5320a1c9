import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { insertUser, storedQuotaOf } from '../../../test/ledger-users.js';
import { insertLogRows } from '../../api/log/writer.js';
import { randomString } from '../../platform/crypto.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../platform/db/index.js';
import { Journal } from '../../platform/journal/journal.js';
import { replayJournal } from './journal-replay.js';
import type { Reservation } from './ledger.js';
import { RedisQuotaLedger } from './redis-ledger.js';

const redisUrl = process.env.TEST_REDIS_URL;
const NEVER = 3_600_000;

/**
 * Balance leases through the ledger: nodes serve steady requests from slices of the balance held
 * in Redis, and together never charge more than the balance; a node killed with a lease leaves its
 * slice held until its journal is replayed, and then the balance is exact.
 */
describe.skipIf(!redisUrl)('balance leases shared by nodes', () => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;
  const clients: Redis[] = [];
  let nextUser = 1;

  /** A node with leases and a crash journal of its own (only a node with a journal takes leases). */
  const node = (prefix: string, options: { journal?: Journal } = {}) => {
    const client = new Redis(redisUrl ?? '');
    clients.push(client);
    const journal =
      options.journal ??
      new Journal({ directory: mkdtempSync(join(tmpdir(), 'one-hub-leases-')), fsyncIntervalMs: 1000 });
    const ledger = new RedisQuotaLedger(handle, client, { prefix, flushIntervalMs: NEVER, leaseFlushMs: 10, journal });
    return { ledger, client };
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

  it('keeps a killed node’s lease held until its journal is replayed, then the balance is exact', async () => {
    const prefix = `onehub-test:leases:${randomString(8)}:`;
    const start = 100_000;
    const user = await insertUser(handle, nextUser++, start);
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-leases-'));
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    const doomed = node(prefix, { journal });
    // Spends until it serves from a lease, then a little more from it.
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
});
