import { sql } from 'kysely';
import type { DatabaseHandle } from '../apps/server/src/platform/db/index.js';

/**
 * The `logs` table's rows and the bytes it takes with its indexes: SQLite's pages of the table and
 * its indexes (the dbstat table), PostgreSQL's `pg_total_relation_size` (heap, indexes and TOAST),
 * MySQL's data and index length (InnoDB's estimate). For "log storage per million requests".
 */
export async function logStorage(handle: DatabaseHandle): Promise<{ rows: number; bytes: number }> {
  const size = {
    sqlite: `select sum(pgsize) as bytes from dbstat
              where name in (select name from sqlite_master where tbl_name = 'logs')`,
    postgres: `select pg_total_relation_size('logs') as bytes`,
    mysql: `select data_length + index_length as bytes from information_schema.tables
             where table_schema = database() and table_name = 'logs'`,
  }[handle.dialect];
  const bytes = await sql.raw<{ bytes: number | string }>(size).execute(handle.db);
  const rows = await handle.db
    .selectFrom('logs')
    .select(sql<number | string>`count(*)`.as('rows'))
    .executeTakeFirstOrThrow();
  return { rows: Number(rows.rows), bytes: Number(bytes.rows[0]?.bytes ?? 0) };
}

/** `12,345 rows, 4.1 MB, 332 bytes per row (332 MB per million)`. */
export function describeStorage({ rows, bytes }: { rows: number; bytes: number }): string {
  const perRow = bytes / Math.max(rows, 1);
  return `${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB, ${perRow.toFixed(0)} bytes per row (${perRow.toFixed(0)} MB per million)`;
}
