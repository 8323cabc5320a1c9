import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { DialectName } from '../connect.js';

/**
 * Small helpers so one migration reads the same on SQLite, PostgreSQL and MySQL. Everything that
 * differs between the three lives here.
 */
export interface MigrationContext {
  dialect: DialectName;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is.
export type AnyDb = Kysely<any>;

/** Creates a table with an auto-increment integer primary key `id`. */
export function createTableWithId(
  db: AnyDb,
  context: MigrationContext,
  table: string,
  idType: 'integer' | 'bigint' = 'integer',
): CreateTableBuilder<string, 'id'> {
  const builder = db.schema.createTable(table);
  if (context.dialect === 'postgres') {
    return builder.addColumn('id', idType === 'bigint' ? 'bigserial' : 'serial', (column) => column.primaryKey());
  }
  const type = context.dialect === 'sqlite' ? 'integer' : idType;
  return builder.addColumn('id', type, (column) => column.primaryKey().autoIncrement());
}

/** MySQL: binary collation, so uniqueness and comparisons are case-sensitive as on the other two. */
export function finishTable<T extends string, C extends string>(
  builder: CreateTableBuilder<T, C>,
  context: MigrationContext,
): CreateTableBuilder<T, C> {
  if (context.dialect !== 'mysql') return builder;
  return builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
}
