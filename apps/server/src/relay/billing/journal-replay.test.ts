import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { insertToken, insertUser, storedQuotaOf, storedTokenOf } from '../../../test/ledger-users.js';
import { logRow } from '../../../test/log-rows.js';
import { insertLogRows, LogWriter } from '../../api/log/writer.js';
import { appliedBatches, journalMarks, pruneBatchRecords } from '../../platform/journal/batches.js';
import { Journal } from '../../platform/journal/journal.js';
import { readJournal } from '../../platform/journal/read.js';
import { claimAbandonedSlots, claimSlot } from '../../platform/journal/slots.js';
import { openJournal, replayJournal } from './journal-replay.js';
import { MemoryQuotaLedger } from './ledger.js';

const folder = () => mkdtempSync(join(tmpdir(), 'one-hub-journal-'));
const NEVER = 3_600_000;

describe('the crash journal file', () => {
  it('keeps settlements, rows and batches, and skips a half-written last line', () => {
    const directory = folder();
    const journal = new Journal({ directory, fsyncIntervalMs: 0 });
    const first = journal.settlement({ userId: 1, tokenId: 2, unlimitedKeyId: 0, channelId: 3, charged: 40 });
    const row = journal.logRow(logRow({ model_name: 'journaled', quota: 40 }));
    journal.batch('b-1', [first]);
    journal.commit();
    // A process killed in the middle of a write leaves part of a line.
    const [segment] = readdirSync(directory);
    appendFileSync(join(directory, segment as string), '{"s":9,"u":1,');
    const contents = readJournal(directory);
    expect(contents.settlements.get(first)).toEqual({
      userId: 1,
      tokenId: 2,
      unlimitedKeyId: 0,
      channelId: 3,
      charged: 40,
    });
    expect(contents.logRows.get(row)?.model_name).toBe('journaled');
    expect(contents.batches.get('b-1')).toEqual([first]);
    expect(contents.unreadable).toBe(1);
    journal.close();
  });

  it('is on disk at commit, before any timer or turn of the event loop', () => {
    const directory = folder();
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    journal.settlement({ userId: 5, tokenId: 0, unlimitedKeyId: 0, channelId: 0, charged: 7 });
    journal.commit();
    // Read synchronously, as a replay after a kill would find it.
    expect([...readJournal(directory).settlements.values()]).toEqual([
      { userId: 5, tokenId: 0, unlimitedKeyId: 0, channelId: 0, charged: 7 },
    ]);
    journal.close();
  });

  it('deletes a segment once every record in it reached the database', () => {
    const directory = folder();
    const journal = new Journal({ directory, fsyncIntervalMs: 0, segmentBytes: 200 });
    const seqs: number[] = [];
    for (let index = 0; index < 10; index++) {
      seqs.push(journal.settlement({ userId: 1, tokenId: 0, unlimitedKeyId: 0, channelId: 0, charged: index }));
      journal.commit();
    }
    expect(readdirSync(directory).length).toBeGreaterThan(2);
    journal.settled(seqs.slice(0, 5));
    const left = readJournal(directory);
    // The first records' segments are gone; every record not yet written is still there.
    for (const seq of seqs.slice(5)) expect(left.settlements.has(seq)).toBe(true);
    expect(left.settlements.size).toBeLessThan(10);
    journal.settled(seqs.slice(5));
    journal.close();
    expect(readdirSync(directory)).toEqual([]);
  });
});

describe('journal slots', () => {
  it('gives two servers in one process two slots, and takes over the slot of a process that is gone', () => {
    const root = folder();
    const first = claimSlot(root);
    const second = claimSlot(root);
    expect(second.index).not.toBe(first.index);
    // A lock left by a process that no longer runs (pid 2^22 + 1 is beyond Linux's pid range).
    writeFileSync(join(root, '7.lock'), String(4_194_305));
    const taken = claimAbandonedSlots(root, first);
    expect(taken.map((slot) => slot.index)).toEqual([7]);
    // The other live slot of this process is not taken from it.
    expect(taken.map((slot) => slot.index)).not.toContain(second.index);
    for (const slot of [first, second, ...taken]) slot.release();
    expect(existsSync(join(root, '7.lock'))).toBe(false);
  });
});

describe.each(availableDialects)('replaying the journal on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  let nextUser = 1;

  const rowsOf = async (user: number) =>
    Number(
      (
        await handle.db
          .selectFrom('logs')
          .select(sql<number | string>`count(*)`.as('total'))
          .where('user_id', '=', user)
          .executeTakeFirstOrThrow()
      ).total,
    );

  /** A ledger and a log writer on a journal that only flush when asked; `served` requests settled and logged. */
  async function serve(directory: string, user: number, token: number, served: number, cost: number) {
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    const ledger = new MemoryQuotaLedger(handle, { flushIntervalMs: NEVER, journal });
    const logs = new LogWriter(handle, { flushIntervalMs: NEVER, journal });
    for (let index = 0; index < served; index++) {
      const reservation = await ledger.reserve(user, { id: token, limited: true }, cost);
      const { charged } = await ledger.settle(reservation, cost, 0);
      logs.push(logRow({ user_id: user, token_id: token, quota: charged, model_name: 'replayed' }));
      journal.commit();
    }
    return { journal, ledger, logs };
  }

  it('writes what a killed process settled and logged, once, however often it is replayed', async () => {
    const user = await insertUser(handle, nextUser++, 10_000);
    const token = await insertToken(handle, user, { remainQuota: 5_000, unlimited: false });
    const directory = folder();
    // Nothing flushed: the process is "killed" with everything still in memory.
    await serve(directory, user, token, 12, 30);
    expect(await storedQuotaOf(handle, user)).toBe(10_000);
    const copy = folder();
    cpSync(directory, copy, { recursive: true });

    const report = await replayJournal(handle, directory, insertLogRows);
    expect(report).toMatchObject({ settlements: 12, logRows: 12, unreadable: 0 });
    expect(await storedQuotaOf(handle, user)).toBe(10_000 - 12 * 30);
    expect(await storedTokenOf(handle, token)).toMatchObject({ remain: 5_000 - 360, used: 360 });
    expect(await rowsOf(user)).toBe(12);
    expect(readdirSync(directory)).toEqual([]);

    // The same journal again (a replay killed before it removed the files): nothing twice.
    await replayJournal(handle, copy, insertLogRows);
    expect(await storedQuotaOf(handle, user)).toBe(10_000 - 12 * 30);
    expect(await rowsOf(user)).toBe(12);
  });

  it('does not replay what batches already wrote, and writes what came after them', async () => {
    const user = await insertUser(handle, nextUser++, 10_000);
    const token = await insertToken(handle, user, { remainQuota: 10_000, unlimited: false });
    const directory = folder();
    const { ledger, logs } = await serve(directory, user, token, 5, 10);
    await ledger.flush();
    await logs.flush();
    expect(await storedQuotaOf(handle, user)).toBe(10_000 - 50);
    // Five more, then "killed" before their batches.
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    const later = new MemoryQuotaLedger(handle, { flushIntervalMs: NEVER, journal });
    for (let index = 0; index < 5; index++) {
      const reservation = await later.reserve(user, null, 10);
      await later.settle(reservation, 10);
    }
    journal.commit();
    await replayJournal(handle, directory, insertLogRows);
    expect(await storedQuotaOf(handle, user)).toBe(10_000 - 100);
    expect(await rowsOf(user)).toBe(5);
  });

  it('counts a batch whose transaction committed just before the kill once', async () => {
    const user = await insertUser(handle, nextUser++, 1_000);
    const directory = folder();
    const journal = new Journal({ directory, fsyncIntervalMs: 0 });
    const ledger = new MemoryQuotaLedger(handle, { flushIntervalMs: NEVER, journal });
    await ledger.settle(await ledger.reserve(user, null, 100), 100);
    await ledger.flush();
    // The files as a kill right after the commit leaves them: the settlement and the batch that
    // carried it, whose id the database has.
    const left = readJournal(directory);
    expect([left.settlements.size, left.batches.size]).toEqual([1, 1]);
    await replayJournal(handle, directory, insertLogRows);
    expect(await storedQuotaOf(handle, user)).toBe(900);
  });

  it('keeps batch ids and journal marks for 30 days', async () => {
    const now = Date.now();
    const day = 86_400;
    const at = (days: number) => Math.floor(now / 1000) - days * day;
    await handle.db
      .insertInto('ledger_flushes')
      .values([
        { id: 'prune-old', created_at: at(31) },
        { id: 'prune-recent', created_at: at(29) },
      ])
      .execute();
    await handle.db
      .insertInto('journal_marks')
      .values({ journal_id: 'prune-old', seq: 5, updated_at: at(31) })
      .execute();
    await pruneBatchRecords(handle, now);
    expect([...(await appliedBatches(handle, ['prune-old', 'prune-recent']))]).toEqual(['prune-recent']);
    expect((await journalMarks(handle, ['prune-old'])).size).toBe(0);
  });

  it('skips a damaged line, reports it, and starts anyway', async () => {
    const user = await insertUser(handle, nextUser++, 1_000);
    const root = folder();
    const slot = claimSlot(root);
    const journal = new Journal({ directory: slot.directory, fsyncIntervalMs: 0 });
    journal.settlement({ userId: user, tokenId: 0, unlimitedKeyId: 0, channelId: 0, charged: 25 });
    journal.commit();
    const [segment] = readdirSync(slot.directory);
    const file = join(slot.directory, segment as string);
    writeFileSync(file, `${readFileSync(file, 'utf8')}not json at all\n{"s":"x"}\n{"s":99,"u":`);
    slot.release();
    const opened = await openJournal(handle, root, insertLogRows, { fsyncIntervalMs: 1000 });
    expect(opened.replayed).toMatchObject({ settlements: 1, unreadable: 3 });
    expect(await storedQuotaOf(handle, user)).toBe(975);
    opened.close();
  });
});
