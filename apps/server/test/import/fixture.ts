import BetterSqlite3 from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import type { ProductName } from '../../src/import/legacy.js';
import type { DialectName } from '../../src/platform/db/index.js';
import type { AnyDb } from '../../src/platform/db/migrations/helpers.js';
import type { TestDatabase } from '../databases.js';

/**
 * Helpers to build a source database of another product (One Hub, one-api, new-api) in a test
 * database of any dialect, with column types close to what GORM creates there.
 */

/** A source database has another product's schema: typed loosely, as migrations type theirs. */
export type SourceKysely = AnyDb;

/** What a test needs to know about the rows a fixture wrote: names, passwords, keys and codes in clear. */
export interface SourceFixture {
  product: ProductName;
  users: Array<{
    id: number;
    username: string;
    password: string;
    role: number;
    status: number;
    quota: number;
    usedQuota: number;
    group: string;
    deleted: boolean;
    accessToken: string;
  }>;
  /** API keys without `sk-`, by what they test. */
  keys: Record<'unlimited' | 'legacy' | 'expired' | 'disabled' | 'exhausted' | 'ownerDisabled' | 'deleted', string>;
  /** Redemption codes in clear. */
  codes: { unused: string; unusedQuota: number; used: string; disabled: string };
  /** Rows per source table. */
  counts: Record<
    | 'users'
    | 'tokens'
    | 'channels'
    | 'redemptions'
    | 'logs'
    | 'statistics'
    | 'user_groups'
    | 'prices'
    | 'model_owned_by'
    | 'model_info'
    | 'options',
    number
  >;
  /** The user whose keys the relay tests use, and the channel that points at the mock upstream. */
  relayUser: string;
  mockChannelId: number;
}

export type ColumnKind = 'id' | 'int' | 'bool' | 'float' | 'string' | 'text' | 'json' | 'datetime' | 'date';

const TYPES: Record<DialectName, Record<Exclude<ColumnKind, 'id'>, string>> = {
  sqlite: {
    int: 'integer',
    bool: 'numeric',
    float: 'real',
    string: 'text',
    text: 'text',
    json: 'json',
    datetime: 'datetime',
    date: 'date',
  },
  postgres: {
    int: 'bigint',
    bool: 'boolean',
    float: 'numeric',
    string: 'text',
    text: 'text',
    json: 'jsonb',
    datetime: 'timestamptz',
    date: 'date',
  },
  mysql: {
    int: 'bigint',
    bool: 'boolean',
    float: 'double',
    string: 'varchar(191)',
    text: 'longtext',
    json: 'json',
    datetime: 'datetime(3)',
    date: 'date',
  },
};

const ID_COLUMN: Record<DialectName, string> = {
  sqlite: 'integer primary key autoincrement',
  postgres: 'bigserial primary key',
  mysql: 'bigint auto_increment primary key',
};

function quote(dialect: DialectName, name: string): string {
  return dialect === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

/** Opens a test database for writing the fixture (the importer itself opens it read-only). */
export function connectSource(database: TestDatabase): SourceKysely {
  if (database.dialect === 'sqlite') {
    return new Kysely({ dialect: new SqliteDialect({ database: new BetterSqlite3(database.target.sqlitePath) }) });
  }
  if (database.dialect === 'postgres') {
    return new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.target.sqlDsn, max: 2 }) }),
    });
  }
  return new Kysely({
    dialect: new MysqlDialect({ pool: createPool({ uri: database.target.sqlDsn ?? '', connectionLimit: 2 }) }),
  });
}

/** `create table` with GORM-like column types; `primaryKey` names a composite key instead of an `id`. */
export async function createLegacyTable(
  db: SourceKysely,
  dialect: DialectName,
  table: string,
  columns: Record<string, ColumnKind>,
  primaryKey?: string[],
): Promise<void> {
  const definitions = Object.entries(columns).map(([name, kind]) =>
    kind === 'id' ? `${quote(dialect, name)} ${ID_COLUMN[dialect]}` : `${quote(dialect, name)} ${TYPES[dialect][kind]}`,
  );
  if (primaryKey) definitions.push(`primary key (${primaryKey.map((name) => quote(dialect, name)).join(', ')})`);
  await sql.raw(`create table ${quote(dialect, table)} (${definitions.join(', ')})`).execute(db);
}

/** A date-time as the dialect's driver takes it: GORM's text form on SQLite, a Date elsewhere. */
export function dateTime(dialect: DialectName, seconds: number): Date | string {
  const moment = new Date(seconds * 1000);
  if (dialect !== 'sqlite') return moment;
  return `${moment.toISOString().replace('T', ' ').replace('Z', '')}123456+00:00`;
}

/** Inserts rows in chunks; SQLite takes booleans as 0/1 and JSON values as text. */
export async function insertLegacyRows(
  db: SourceKysely,
  dialect: DialectName,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  const converted = rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([column, value]) => {
        if (dialect === 'sqlite' && typeof value === 'boolean') return [column, value ? 1 : 0];
        if (value !== null && typeof value === 'object' && !(value instanceof Date))
          return [column, JSON.stringify(value)];
        return [column, value];
      }),
    ),
  );
  for (let start = 0; start < converted.length; start += 200) {
    await db
      .insertInto(table)
      .values(converted.slice(start, start + 200))
      .execute();
  }
}
