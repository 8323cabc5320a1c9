import type { Generated, InsertQueryBuilder, InsertResult, Kysely, Transaction } from 'kysely';
import { type Database, type DatabaseHandle, type DialectName, insertReturningId } from '../../platform/db/index.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { Skipped } from '../legacy.js';

/**
 * `fresh`: the target had no users, keys, channels, codes or logs, so source ids are kept.
 * `merge` (--merge): rows get new ids, references are remapped, and what the target already has wins.
 */
export type ImportMode = 'fresh' | 'merge';

/** The importer's own bookkeeping tables (migration 0010_import_progress). */
export type ImportTables = {
  import_runs: {
    id: Generated<number>;
    source: string;
    product: string;
    mode: string;
    started_at: number;
    finished_at: Generated<number>;
  };
  import_progress: {
    run_id: number;
    step: string;
    last_id: number;
    done: number;
    read_count: number;
    written_count: number;
    skipped_count: number;
  };
  import_id_map: { run_id: number; entity: string; source_id: number; target_id: number };
  import_skips: {
    id: Generated<number>;
    run_id: number;
    step: string;
    row_ref: string;
    reason: string;
    row_count: number;
  };
};

export type TargetTransaction = Transaction<Database>;

/** The same transaction seen with the bookkeeping tables. */
export function bookkeeping(executor: Kysely<Database>): Kysely<Database & ImportTables> {
  return executor.withTables<ImportTables>() as unknown as Kysely<Database & ImportTables>;
}

/** Everything a table writer needs besides the rows. */
export interface WriteContext {
  dialect: DialectName;
  mode: ImportMode;
  runId: number;
  /** The same boxes, under the same server secret, as the services that read these columns. */
  secrets: { tokens: SecretBox; channels: SecretBox; redemptions: SecretBox; payments: SecretBox };
}

export interface BatchResult {
  written: number;
  skipped: Skipped[];
}

/** Cuts text to a column's width, so one long value cannot fail a whole batch on PostgreSQL or MySQL. */
export function clip(text: string, width: number): string {
  return text.length > width ? text.slice(0, width) : text;
}

/** Rows per INSERT statement: well under every driver's bound-parameter limit at ~20 columns a row. */
export const INSERT_CHUNK = 200;

export function chunked<Item>(items: readonly Item[], size = INSERT_CHUNK): Item[][] {
  const chunks: Item[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Runs an insert and returns the new row's id (RETURNING, or MySQL's insertId). */
export function insertedId<DB, TB extends keyof DB>(
  context: WriteContext,
  query: InsertQueryBuilder<DB, TB, InsertResult>,
): Promise<number> {
  return insertReturningId({ dialect: context.dialect } as DatabaseHandle, query);
}
