import { type RawBuilder, sql } from 'kysely';
import type { WindowUse } from '../../../domain/budget-windows.js';
import type { DatabaseHandle, DialectName, Executor } from '../../../platform/db/index.js';
import { claimBatch } from '../../../platform/journal/batches.js';
import type { WindowUseRecord } from '../../../platform/journal/journal.js';
import { MEASURES } from './measures.js';

/** Use settled into one window, on its way to the database: what the crash journal records of it. */
export type WindowDelta = WindowUseRecord;

/**
 * The use of each subject's current window in `budget_usage` (migration 0020), one row per subject
 * and period. The relay's ledger holds the live counts and writes what settled here in batches; the
 * table is read when a subject is first met, so a restart resumes a window where it was. In one
 * statement per delta (an upsert, so concurrent nodes cannot collide): a delta for the row's window
 * is added, one for a newer window replaces the row, one for an older window (late by a window
 * change) is dropped, as it no longer limits anything.
 */
export class BudgetUsageStore {
  constructor(private readonly handle: DatabaseHandle) {}

  async read(subject: string, period: string): Promise<WindowUse | undefined> {
    const row = await this.handle.db
      .selectFrom('budget_usage')
      .select(['started_at', 'quota', 'requests', 'tokens'])
      .where('subject', '=', subject)
      .where('period', '=', period)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      start: Number(row.started_at),
      quota: Number(row.quota),
      requests: Number(row.requests),
      tokens: Number(row.tokens),
    };
  }

  /** Writes a batch of deltas in one transaction; with a batch id, once (claimBatch). */
  async add(deltas: WindowDelta[], batchId?: string, now = Date.now()): Promise<void> {
    if (deltas.length === 0) return;
    await this.handle.db.transaction().execute(async (transaction) => {
      if (batchId && !(await claimBatch(transaction, batchId))) return;
      await addWindowUse(transaction, this.handle.dialect, deltas, now);
    });
  }
}

/** Adds deltas to their windows' rows in the caller's transaction (a batch, or a crash replay). */
export async function addWindowUse(
  transaction: Executor,
  dialect: DialectName,
  deltas: readonly WindowDelta[],
  now = Date.now(),
): Promise<void> {
  const mysql = dialect === 'mysql';
  const incoming = (column: string) => (mysql ? sql`values(${sql.ref(column)})` : sql`excluded.${sql.ref(column)}`);
  const stored = (column: string) => (mysql ? sql.ref(column) : sql.ref(`budget_usage.${column}`));
  // MySQL applies assignments in order, so started_at, which the others compare with, comes last.
  const merged: Record<string, RawBuilder<unknown>> = {};
  for (const column of MEASURES) {
    merged[column] =
      sql`case when ${stored('started_at')} = ${incoming('started_at')} then ${stored(column)} + ${incoming(column)} when ${stored('started_at')} < ${incoming('started_at')} then ${incoming(column)} else ${stored(column)} end`;
  }
  merged.updated_at = incoming('updated_at');
  merged.started_at = sql`case when ${stored('started_at')} < ${incoming('started_at')} then ${incoming('started_at')} else ${stored('started_at')} end`;
  for (const delta of deltas) {
    const insert = transaction.insertInto('budget_usage').values({
      subject: delta.subject,
      period: delta.period,
      started_at: delta.start,
      quota: delta.quota,
      requests: delta.requests,
      tokens: delta.tokens,
      updated_at: now,
    });
    if (mysql) await insert.onDuplicateKeyUpdate(merged).execute();
    else await insert.onConflict((conflict) => conflict.columns(['subject', 'period']).doUpdateSet(merged)).execute();
  }
}
