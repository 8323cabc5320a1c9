import { mkdtempSync, readdirSync } from 'node:fs';
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
import { RedisQuotaLedger } from './redis-ledger.js';

const redisUrl = process.env.TEST_REDIS_URL;
const NEVER = 3_600_000;

/**
 * The shared ledger keeps settled amounts in Redis until a batch writes them; a Redis without
 * persistence that restarts loses them. Each node's journal keeps them too, and the replay writes
 * exactly those no batch carried: nothing twice when Redis kept them, everything when it did not.
 */
describe.skipIf(!redisUrl)('the shared ledger with a crash journal', () => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;
  const clients: Redis[] = [];
  let nextUser = 1;

  const node = (prefix: string, journal?: Journal) => {
    const client = new Redis(redisUrl ?? '');
    clients.push(client);
    return new RedisQuotaLedger(handle, client, { prefix, flushIntervalMs: NEVER, ...(journal ? { journal } : {}) });
  };
  /** Deletes every key of the ledger, as a Redis restart without persistence would. */
  const loseRedis = async (prefix: string) => {
    const client = clients[0] as Redis;
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
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

  async function settleSome(ledger: RedisQuotaLedger, journal: Journal, user: number, count: number, cost: number) {
    for (let index = 0; index < count; index++) {
      await ledger.settle(await ledger.reserve(user, null, cost), cost, 0);
    }
    journal.commit();
  }

  it('writes what Redis lost, and only that, when a killed node restarts', async () => {
    const prefix = `onehub-test:journal:${randomString(8)}:`;
    const user = await insertUser(handle, nextUser++, 10_000);
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-redis-journal-'));
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    const ledger = node(prefix, journal);
    // Five settled and written by a batch, then five more still in Redis when the node is killed.
    await settleSome(ledger, journal, user, 5, 20);
    await ledger.flush();
    expect(await storedQuotaOf(handle, user)).toBe(10_000 - 100);
    await settleSome(ledger, journal, user, 5, 20);
    // Redis restarts empty: the five unwritten amounts exist only in the journal now.
    await loseRedis(prefix);
    const restarted = node(prefix);
    const report = await replayJournal(handle, directory, insertLogRows, { flushShared: () => restarted.flushAll() });
    expect(report.settlements).toBe(5);
    expect(await storedQuotaOf(handle, user)).toBe(10_000 - 200);
    expect(readdirSync(directory)).toEqual([]);
  });

  it('writes nothing twice when Redis kept what the killed node settled', async () => {
    const prefix = `onehub-test:journal:${randomString(8)}:`;
    const user = await insertUser(handle, nextUser++, 10_000);
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-redis-journal-'));
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    const ledger = node(prefix, journal);
    await settleSome(ledger, journal, user, 7, 30);
    // Killed with the seven amounts pending in Redis, which kept them.
    const restarted = node(prefix);
    const report = await replayJournal(handle, directory, insertLogRows, { flushShared: () => restarted.flushAll() });
    expect(report.settlements).toBe(0);
    expect(await storedQuotaOf(handle, user)).toBe(10_000 - 210);
  });

  it('lets the journal drop what batches of any node carried', async () => {
    const prefix = `onehub-test:journal:${randomString(8)}:`;
    const user = await insertUser(handle, nextUser++, 10_000);
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-redis-journal-'));
    const journal = new Journal({ directory, fsyncIntervalMs: 1000, segmentBytes: 64 });
    const ledger = node(prefix, journal);
    await settleSome(ledger, journal, user, 6, 10);
    expect(journal.sharedOpen).toBe(6);
    // Another node writes the batch; this one learns it at its next flush.
    await node(prefix).flush();
    await ledger.flush();
    expect(journal.sharedOpen).toBe(0);
    // Only the segment being written is left.
    expect(readdirSync(directory)).toHaveLength(1);
  });
});
