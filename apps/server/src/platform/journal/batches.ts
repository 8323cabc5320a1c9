import type { DatabaseHandle, Executor } from '../db/index.js';

/**
 * Records a batch id in `ledger_flushes`, inside the transaction that applies the batch: false
 * when it was applied already, so a batch retried after an unclear failure (or replayed after a
 * crash) counts once.
 */
export async function claimBatch(transaction: Executor, batchId: string): Promise<boolean> {
  const done = await transaction.selectFrom('ledger_flushes').select('id').where('id', '=', batchId).executeTakeFirst();
  if (done) return false;
  await transaction
    .insertInto('ledger_flushes')
    .values({ id: batchId, created_at: Math.floor(Date.now() / 1000) })
    .execute();
  return true;
}

/** The ids among `batchIds` that were applied. */
export async function appliedBatches(handle: DatabaseHandle, batchIds: readonly string[]): Promise<Set<string>> {
  const applied = new Set<string>();
  for (let start = 0; start < batchIds.length; start += 500) {
    const rows = await handle.db
      .selectFrom('ledger_flushes')
      .select('id')
      .where('id', 'in', batchIds.slice(start, start + 500))
      .execute();
    for (const row of rows) applied.add(row.id);
  }
  return applied;
}

/**
 * Raises each journal's mark to the highest of its settlements a written batch carried, in the
 * batch's transaction. Batches are written one at a time (the shared ledger's flush lock), so a
 * read-then-write is enough.
 */
export async function raiseJournalMarks(transaction: Executor, marks: ReadonlyMap<string, number>): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  for (const [journalId, seq] of marks) {
    const current = await transaction
      .selectFrom('journal_marks')
      .select('seq')
      .where('journal_id', '=', journalId)
      .executeTakeFirst();
    if (!current) {
      await transaction.insertInto('journal_marks').values({ journal_id: journalId, seq, updated_at: now }).execute();
    } else if (Number(current.seq) < seq) {
      await transaction
        .updateTable('journal_marks')
        .set({ seq, updated_at: now })
        .where('journal_id', '=', journalId)
        .execute();
    }
  }
}

/** The marks of these journals (0 for one no batch carried yet). */
export async function journalMarks(
  handle: DatabaseHandle,
  journalIds: readonly string[],
): Promise<Map<string, number>> {
  const marks = new Map<string, number>();
  if (journalIds.length === 0) return marks;
  const rows = await handle.db
    .selectFrom('journal_marks')
    .select(['journal_id', 'seq'])
    .where('journal_id', 'in', journalIds)
    .execute();
  for (const row of rows) marks.set(row.journal_id, Number(row.seq));
  return marks;
}

/** How long batch ids and journal marks are kept: a node restarted later than this may replay twice. */
export const BATCH_RECORD_DAYS = 30;

/** Deletes batch ids and journal marks older than BATCH_RECORD_DAYS. */
export async function pruneBatchRecords(handle: DatabaseHandle, now = Date.now()): Promise<void> {
  const cutoff = Math.floor(now / 1000) - BATCH_RECORD_DAYS * 86_400;
  await handle.db.deleteFrom('ledger_flushes').where('created_at', '<', cutoff).execute();
  await handle.db.deleteFrom('journal_marks').where('updated_at', '<', cutoff).execute();
}
