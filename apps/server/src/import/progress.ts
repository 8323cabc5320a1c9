import type { Kysely } from 'kysely';
import { nowSeconds } from '../platform/clock.js';
import type { Database } from '../platform/db/index.js';
import type { ProductName, Skipped } from './legacy.js';
import { bookkeeping, chunked, clip, type ImportMode } from './writer/context.js';

/** How far one step got: the last source id written and the running counts. */
export interface StepProgress {
  step: string;
  lastId: number;
  done: boolean;
  read: number;
  written: number;
  skipped: number;
}

export interface ImportRun {
  id: number;
  source: string;
  product: string;
  mode: ImportMode;
  startedAt: number;
  finishedAt: number;
}

/** Skip entries kept per step; beyond that only the counts grow (a source with millions of broken rows). */
const SKIPS_KEPT_PER_BATCH = 200;

export async function findRun(db: Kysely<Database>, source: string): Promise<ImportRun | undefined> {
  const row = await bookkeeping(db)
    .selectFrom('import_runs')
    .selectAll()
    .where('source', '=', source)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: Number(row.id),
    source: row.source,
    product: row.product,
    mode: row.mode === 'merge' ? 'merge' : 'fresh',
    startedAt: Number(row.started_at),
    finishedAt: Number(row.finished_at),
  };
}

export async function startRun(
  db: Kysely<Database>,
  source: string,
  product: ProductName,
  mode: ImportMode,
): Promise<ImportRun> {
  await bookkeeping(db).insertInto('import_runs').values({ source, product, mode, started_at: nowSeconds() }).execute();
  const run = await findRun(db, source);
  if (!run) throw new Error('the import run could not be recorded');
  return run;
}

export async function finishRun(db: Kysely<Database>, runId: number): Promise<void> {
  await bookkeeping(db).updateTable('import_runs').set({ finished_at: nowSeconds() }).where('id', '=', runId).execute();
}

export async function readProgress(db: Kysely<Database>, runId: number): Promise<Map<string, StepProgress>> {
  const rows = await bookkeeping(db).selectFrom('import_progress').selectAll().where('run_id', '=', runId).execute();
  return new Map(
    rows.map((row) => [
      row.step,
      {
        step: row.step,
        lastId: Number(row.last_id),
        done: Number(row.done) === 1,
        read: Number(row.read_count),
        written: Number(row.written_count),
        skipped: Number(row.skipped_count),
      },
    ]),
  );
}

/** Writes a step's new mark and counts; call it in the transaction that wrote the rows. */
export async function saveProgress(executor: Kysely<Database>, runId: number, progress: StepProgress): Promise<void> {
  const values = {
    last_id: progress.lastId,
    done: progress.done ? 1 : 0,
    read_count: progress.read,
    written_count: progress.written,
    skipped_count: progress.skipped,
  };
  // Existence first: MySQL reports 0 updated rows when the values did not change.
  const existing = await bookkeeping(executor)
    .selectFrom('import_progress')
    .select('step')
    .where('run_id', '=', runId)
    .where('step', '=', progress.step)
    .executeTakeFirst();
  if (existing) {
    await bookkeeping(executor)
      .updateTable('import_progress')
      .set(values)
      .where('run_id', '=', runId)
      .where('step', '=', progress.step)
      .execute();
    return;
  }
  await bookkeeping(executor)
    .insertInto('import_progress')
    .values({ run_id: runId, step: progress.step, ...values })
    .execute();
}

/** How many source rows a list of skips stands for (summary entries count several). */
export function skippedRows(skipped: readonly Skipped[]): number {
  return skipped.reduce((total, entry) => total + (entry.count ?? 1), 0);
}

/** Keeps the reasons for the final report, in the same transaction as the batch they belong to. */
export async function recordSkips(
  executor: Kysely<Database>,
  runId: number,
  step: string,
  skipped: readonly Skipped[],
): Promise<void> {
  const kept = skipped.slice(0, SKIPS_KEPT_PER_BATCH);
  const rest = skipped.slice(SKIPS_KEPT_PER_BATCH);
  const entries = kept.map((entry) => ({
    run_id: runId,
    step,
    row_ref: clip(entry.row === undefined ? entry.table : `${entry.table}:${entry.row}`, 255),
    reason: clip(entry.reason, 500),
    row_count: entry.count ?? 1,
  }));
  if (rest.length > 0) {
    entries.push({
      run_id: runId,
      step,
      row_ref: step,
      reason: 'more rows skipped in the same batch (reasons as above)',
      row_count: skippedRows(rest),
    });
  }
  for (const chunk of chunked(entries)) await bookkeeping(executor).insertInto('import_skips').values(chunk).execute();
}

export interface RecordedSkip {
  step: string;
  row: string;
  reason: string;
  count: number;
}

export async function readSkips(db: Kysely<Database>, runId: number): Promise<RecordedSkip[]> {
  const rows = await bookkeeping(db)
    .selectFrom('import_skips')
    .select(['step', 'row_ref', 'reason', 'row_count'])
    .where('run_id', '=', runId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ step: row.step, row: row.row_ref, reason: row.reason, count: Number(row.row_count) }));
}
