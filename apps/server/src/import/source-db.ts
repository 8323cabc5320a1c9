import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type Dialect, Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type * as Mysql2 from 'mysql2';
import type Pg from 'pg';
import type { AnyDb } from '../platform/db/migrations/helpers.js';
import type { SourceDb, SourceRow } from './legacy.js';

/** Where the source is and how to name it without credentials (for messages and the progress record). */
export interface SourceLocation {
  dialect: SourceDb['dialect'];
  /** A file path for SQLite, the DSN otherwise. */
  target: string;
  /** The same without a password; also identifies the source in the progress record. */
  describe: string;
}

export class SourceError extends Error {}

/** `--from` as given: a SQLite file path (or `sqlite:` path), `postgres://…` or `mysql://…`. */
export function parseSourceDsn(dsn: string): SourceLocation {
  const text = dsn.trim();
  if (/^(postgres|postgresql):\/\//i.test(text)) return { dialect: 'postgres', target: text, describe: redact(text) };
  if (/^mysql:\/\//i.test(text)) return { dialect: 'mysql', target: text, describe: redact(text) };
  const path = resolve(text.replace(/^sqlite:(\/\/)?/i, ''));
  if (!existsSync(path)) throw new SourceError(`--from: no SQLite database at ${path}`);
  return { dialect: 'sqlite', target: path, describe: `sqlite:${path}` };
}

function redact(dsn: string): string {
  try {
    const url = new URL(dsn);
    if (url.password) url.password = '***';
    url.search = '';
    return url.toString();
  } catch {
    throw new SourceError('--from: the DSN is not a valid URL');
  }
}

const load = createRequire(import.meta.url);

/** PostgreSQL type ids: DATE is kept as its 'YYYY-MM-DD' text so no time zone shifts a day. */
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_DATE = 1082;

function postgresDialect(dsn: string): Dialect {
  const pg = load('pg') as typeof Pg;
  const types = {
    getTypeParser(id: number, format?: 'text' | 'binary') {
      if (id === PG_INT8 || id === PG_NUMERIC) return (value: string) => Number(value);
      if (id === PG_DATE) return (value: string) => value;
      return pg.types.getTypeParser(id, format);
    },
  };
  // Every transaction of these connections is read-only: the source can never be written.
  const pool = new pg.Pool({ connectionString: dsn, max: 2, options: '-c default_transaction_read_only=on', types });
  return new PostgresDialect({ pool });
}

function mysqlDialect(dsn: string): Dialect {
  const mysql = load('mysql2') as typeof Mysql2;
  const pool = mysql.createPool({
    uri: dsn,
    connectionLimit: 2,
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: true,
    dateStrings: ['DATE'],
    charset: 'utf8mb4',
  });
  return new MysqlDialect({
    pool,
    // Every statement of these connections is read-only: the source can never be written.
    onCreateConnection: async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('set session transaction read only'));
    },
  });
}

function sqliteDialect(path: string): Dialect {
  // Opened read-only: SQLite itself refuses every write, and a missing file is an error, not a new database.
  const database = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  return new SqliteDialect({ database });
}

function dialectFor(location: SourceLocation): Dialect {
  if (location.dialect === 'postgres') return postgresDialect(location.target);
  if (location.dialect === 'mysql') return mysqlDialect(location.target);
  return sqliteDialect(location.target);
}

/** Opens the source for reading only, whatever its dialect. */
export async function openSourceDb(location: SourceLocation): Promise<SourceDb> {
  // The source's schema is whatever the product made it: typed loosely, like a migration's.
  const db: AnyDb = new Kysely({ dialect: dialectFor(location) });
  try {
    // SQLite opens any file lazily: reading its catalogue is what proves it is a database.
    await (location.dialect === 'sqlite' ? sql`select count(*) from sqlite_master` : sql`select 1`).execute(db);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw new SourceError(`cannot open the source ${location.describe}: ${(error as Error).message}`);
  }
  return {
    dialect: location.dialect,
    async schema() {
      const tables = await db.introspection.getTables();
      const schema = new Map<string, Set<string>>();
      for (const table of tables) {
        if (table.schema && !['public', ''].includes(table.schema) && location.dialect === 'postgres') continue;
        schema.set(table.name.toLowerCase(), new Set(table.columns.map((column) => column.name.toLowerCase())));
      }
      return schema;
    },
    async rowsAfter(table, afterId, limit) {
      const rows = await db
        .selectFrom(table)
        .selectAll()
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows as SourceRow[];
    },
    async allRows(table) {
      return (await db.selectFrom(table).selectAll().execute()) as SourceRow[];
    },
    async count(table) {
      const row = await db.selectFrom(table).select(sql<number | string>`count(*)`.as('total')).executeTakeFirst();
      return Number(row?.total ?? 0);
    },
    close: () => db.destroy(),
  };
}
