import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { insertUser, storedQuotaOf } from '../../../test/ledger-users.js';
import { injectFaults } from '../../../test/redis-faults.js';
import { randomString } from '../../platform/crypto.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../platform/db/index.js';
import { RedisQuotaLedger } from './redis-ledger.js';
import * as scripts from './redis-ledger-scripts.js';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * The shared ledger's per-request scripts sent twice, as ioredis sends a command again after a
 * reconnect when the reply of its first run was lost: each moves the money once, and the node hears
 * what the first run did.
 */
describe.skipIf(!redisUrl)('Redis quota ledger: commands sent again after a lost reply', () => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;
  const clients: Redis[] = [];
  const prefix = `onehub-test:resend:${randomString(8)}:`;
  let nextUser = 1;

  const node = () => {
    const client = new Redis(redisUrl ?? '');
    clients.push(client);
    const faults = injectFaults(client);
    return { ledger: new RedisQuotaLedger(handle, client, { prefix, flushIntervalMs: 3_600_000 }), faults, client };
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase('sqlite');
    handle = openDatabase(testDatabase.target);
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    for (const client of clients) await client.quit();
    await handle?.close();
    await testDatabase?.drop();
  });

  it('charges a settlement sent twice once, and answers what the first run charged', async () => {
    const { ledger, faults } = node();
    const user = await insertUser(handle, nextUser++, 1000);
    const reservation = await ledger.reserve(user, null, 300);
    faults.resend(scripts.SETTLE);
    expect(await ledger.settle(reservation, 120, 7)).toEqual({ charged: 120, shortfall: 0, balance: 880 });
    await ledger.flush();
    expect(await storedQuotaOf(handle, user)).toBe(880);
    // Sent again once more after its batch went to the database: its marker is kept there still.
    const [sent] = faults.calls(scripts.SETTLE) as [unknown[]];
    const again = (await clients[0]?.eval(scripts.SETTLE, ...(sent as [number, ...string[]]))) as number[];
    expect(again.map(Number)).toEqual([120, 880]);
    await ledger.flush();
    expect(await storedQuotaOf(handle, user)).toBe(880);
    expect(await ledger.reserve(user, null, 880)).toMatchObject({ amount: 880 });
  });

  it('charges a settlement whose reservation expired from what is left, once', async () => {
    const { ledger, faults } = node();
    const user = await insertUser(handle, nextUser++, 1000);
    const reservation = await ledger.reserve(user, null, 300);
    // Given back as expired (the node took longer than the reservation's life): nothing held now.
    await clients[0]?.eval(scripts.REFUND_EXPIRED, 1, `${prefix}res`, reservation.id ?? '', prefix, 9e15);
    faults.resend(scripts.SETTLE);
    expect(await ledger.settle(reservation, 200)).toEqual({ charged: 200, shortfall: 0, balance: 800 });
    await ledger.flush();
    expect(await storedQuotaOf(handle, user)).toBe(800);
  });

  it('holds a reservation sent twice once, even when the second run finds the balance short', async () => {
    const { ledger, faults } = node();
    const user = await insertUser(handle, nextUser++, 1000);
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
    const { ledger, faults } = node();
    const user = await insertUser(handle, nextUser++, 1000);
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
