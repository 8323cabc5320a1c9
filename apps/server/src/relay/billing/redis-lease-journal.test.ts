import { readdirSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { useJournalLedgers } from '../../../test/journal-ledgers.js';
import { storedQuotaOf } from '../../../test/ledger-users.js';
import { insertLogRows } from '../../api/log/writer.js';
import type { Journal } from '../../platform/journal/journal.js';
import { replayJournal } from './journal-replay.js';
import { RENEW_LEASES } from './redis-lease-scripts.js';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * A node killed while it holds a balance lease: its slice is not given back when reservations
 * expire (it may have spent any part of it); its journal's replay writes the spend Redis never
 * saw, exactly once, and gives back the rest of the lease. The node's half of a lease (reserving
 * and settling in memory) is played here by hand: a settlement journaled as made in a lease, and
 * RENEW_LEASES carrying the spend under the lease mark.
 */
describe.skipIf(!redisUrl)('balance leases and the crash journal', () => {
  const { handle, client, node, start } = useJournalLedgers('lease-journal');

  /** One lease's flush: carries `spent` (of `requests` settlements) under the lease mark, asks for `want`. */
  const renew = async (
    redis: Redis,
    prefix: string,
    journal: Journal,
    user: number,
    spent: number,
    requests: number,
    want: number,
    keep = 0,
  ) => {
    const answer = (await redis.eval(
      RENEW_LEASES,
      6,
      `${prefix}res`,
      `${prefix}pending`,
      `${prefix}u:${user}`,
      `${prefix}t:0`,
      `${prefix}uh:${user}`,
      `${prefix}th:0`,
      journal.id,
      journal.nextSeq(),
      `L-${journal.id}-${user}`,
      user,
      0,
      0,
      spent,
      requests,
      // keep: what is held on (0: all but the spend goes back, and a new slice is taken); nothing runs.
      keep,
      0,
      want,
      1,
      8,
      0,
    )) as number[][];
    return (answer[0] as number[]).map(Number);
  };
  /** A settlement made in the lease: only the journal hears of it until the next flush. */
  const spendLocally = (journal: Journal, user: number, charged: number) =>
    journal.sharedSettlement(
      journal.nextSeq(),
      { userId: user, tokenId: 0, unlimitedKeyId: 0, channelId: 3, charged },
      true,
    );

  it('holds a dead node’s lease until its journal is replayed, then the balance is exact', async () => {
    const { prefix, user, directory, journal } = await start(8000);
    // Its reservations expire the moment they are made: no wait for them to run out.
    const doomed = node(prefix, { journal, reservationTtlMs: 0 });
    const redis = client();
    // The balance loaded (a reservation and its refund), then a lease of an eighth: 1000.
    await doomed.settle(await doomed.reserve(user, null, 1), 0);
    expect(await renew(redis, prefix, journal, user, 0, 0, 5000)).toEqual([1, 0, 1000, 8000]);
    // 3 × 100 spent and flushed (the next lease: min(5000, 7700 / 8) = 962), then 2 × 50 spent and never flushed.
    for (const _ of [1, 2, 3]) spendLocally(journal, user, 100);
    expect(await renew(redis, prefix, journal, user, 300, 3, 5000)).toEqual([1, 300, 962, 7700]);
    spendLocally(journal, user, 50);
    spendLocally(journal, user, 50);
    journal.commit();
    // Killed. Long after every reservation expired, a survivor's flush still holds the lease back.
    const survivor = node(prefix);
    await survivor.flush();
    expect(await storedQuotaOf(handle, user)).toBe(7700);
    await expect(survivor.reserve(user, null, 7700 - 962 + 1)).rejects.toMatchObject({
      details: { code: 'insufficient_quota' },
    });
    // The replay writes the 100 Redis never saw and gives back 962 − 100.
    const report = await replayJournal(handle, directory, insertLogRows, {
      flushShared: () => survivor.flushAll(),
      releaseLeases: (ids, spent) => survivor.releaseLeases(ids, spent),
    });
    expect(report.settlements).toBe(2);
    expect(await storedQuotaOf(handle, user)).toBe(7600);
    expect(readdirSync(directory)).toEqual([]);
    // Everything left is spendable again, and no more.
    const all = await survivor.reserve(user, null, 7600);
    await expect(survivor.reserve(user, null, 1)).rejects.toMatchObject({ details: { code: 'insufficient_quota' } });
    expect(await survivor.settle(all, 7600)).toMatchObject({ charged: 7600, balance: 0 });
    await survivor.flush();
    expect(await storedQuotaOf(handle, user)).toBe(0);
  });

  it('lets the journal drop lease settlements once the lease mark reached the database', async () => {
    const { prefix, user, journal } = await start(8000);
    const ledger = node(prefix, { journal });
    const redis = client();
    await ledger.settle(await ledger.reserve(user, null, 1), 0);
    await renew(redis, prefix, journal, user, 0, 0, 1000);
    spendLocally(journal, user, 40);
    // A per-request settlement after it carries n:<journal> past the lease settlement's number.
    await ledger.settle(await ledger.reserve(user, null, 10), 10);
    await ledger.flush();
    // The lease mark has not reached the database: the lease settlement stays in the journal.
    expect(journal.sharedOpen).toBe(1);
    await renew(redis, prefix, journal, user, 40, 1, 1000);
    await ledger.flush();
    expect(journal.sharedOpen).toBe(0);
    expect(await storedQuotaOf(handle, user)).toBe(8000 - 50);
  });
});
