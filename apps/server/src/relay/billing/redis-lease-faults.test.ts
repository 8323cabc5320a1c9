import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { insertUser, storedQuotaOf } from '../../../test/ledger-users.js';
import { injectFaults } from '../../../test/redis-faults.js';
import { randomString } from '../../platform/crypto.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../platform/db/index.js';
import { Journal } from '../../platform/journal/journal.js';
import type { Reservation } from './ledger.js';
import { RENEW_LEASES } from './redis-lease-scripts.js';
import { RedisQuotaLedger } from './redis-ledger.js';

const redisUrl = process.env.TEST_REDIS_URL;
const NEVER = 3_600_000;

/**
 * Balance leases when a flush goes wrong on the way: a flush Redis ran whose call failed, and a
 * settlement made while a flush is in flight. Whatever happens, what the node reports as charged
 * (its log rows) is what the balance lost.
 */
describe.skipIf(!redisUrl)('balance leases: flushes that fail or are in flight', () => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;
  const clients: Redis[] = [];
  let nextUser = 1;

  /** A node with leases and a crash journal; leases flush only when the test says. */
  const node = (prefix: string) => {
    const client = new Redis(redisUrl ?? '');
    clients.push(client);
    const faults = injectFaults(client);
    const journal = new Journal({
      directory: mkdtempSync(join(tmpdir(), 'one-hub-lease-faults-')),
      fsyncIntervalMs: 0,
    });
    const ledger = new RedisQuotaLedger(handle, client, {
      prefix,
      flushIntervalMs: NEVER,
      leaseFlushMs: NEVER,
      journal,
    });
    return { ledger, faults, client };
  };

  /** Reserves 100 until a reservation comes from the lease (the second: a lease is taken after two misses). */
  async function leased(ledger: RedisQuotaLedger, user: number, charges: number[]): Promise<Reservation> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const reservation = await ledger.reserve(user, null, 100);
      if (reservation.leaseKey !== undefined) return reservation;
      charges.push((await ledger.settle(reservation, 100)).charged);
    }
    throw new Error('no lease was taken');
  }

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

  it('sends a failed flush again as it was, so a spend Redis counted is not counted twice', async () => {
    const prefix = `onehub-test:lease-faults:${randomString(8)}:`;
    const start = 80_000;
    const user = await insertUser(handle, nextUser++, start);
    const { ledger, faults } = node(prefix);
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

  it('charges a settlement made while a flush is in flight only what Redis charges too', async () => {
    const prefix = `onehub-test:lease-faults:${randomString(8)}:`;
    const user = await insertUser(handle, nextUser++, 80_000);
    const { ledger, faults } = node(prefix);
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
    const result = await ledger.settle(running, 1000);
    charges.push(result.charged);
    expect(result.shortfall).toBe(1000 - result.charged);
    flight.release();
    await flushing;
    await ledger.close();
    const stored = await storedQuotaOf(handle, user);
    expect(stored).toBeGreaterThanOrEqual(0);
    expect(stored + charges.reduce((sum, charged) => sum + charged, 0)).toBe(1000);
  });
});
