import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useJournalLedgers } from '../../../test/journal-ledgers.js';
import { storedQuotaOf } from '../../../test/ledger-users.js';
import { insertLogRows } from '../../api/log/writer.js';
import type { Journal } from '../../platform/journal/journal.js';
import { replayJournal } from './journal-replay.js';
import type { RedisQuotaLedger } from './redis-ledger.js';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * The shared ledger keeps settled amounts in Redis until a batch writes them; a Redis without
 * persistence that restarts loses them. Each node's journal keeps them too, and the replay writes
 * exactly those no batch carried: nothing twice when Redis kept them, everything when it did not.
 */
describe.skipIf(!redisUrl)('the shared ledger with a crash journal', () => {
  const { handle, client, node, start } = useJournalLedgers('journal');
  /** Deletes every key of the ledger, as a Redis restart without persistence would. */
  const loseRedis = async (prefix: string) => {
    const redis = client();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  };

  async function settleSome(ledger: RedisQuotaLedger, journal: Journal, user: number, count: number, cost: number) {
    for (let index = 0; index < count; index++) {
      await ledger.settle(await ledger.reserve(user, null, cost), cost, 0);
    }
    journal.commit();
  }

  it('writes what Redis lost, and only that, when a killed node restarts', async () => {
    const { prefix, user, directory, journal } = await start(10_000);
    const ledger = node(prefix, { journal });
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
    const { prefix, user, directory, journal } = await start(10_000);
    const ledger = node(prefix, { journal });
    await settleSome(ledger, journal, user, 7, 30);
    // Killed with the seven amounts pending in Redis, which kept them.
    const restarted = node(prefix);
    const report = await replayJournal(handle, directory, insertLogRows, { flushShared: () => restarted.flushAll() });
    expect(report.settlements).toBe(0);
    expect(await storedQuotaOf(handle, user)).toBe(10_000 - 210);
  });

  it('lets the journal drop what batches of any node carried', async () => {
    const { prefix, user, directory, journal } = await start(10_000, { segmentBytes: 64 });
    const ledger = node(prefix, { journal });
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
