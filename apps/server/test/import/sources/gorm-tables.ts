import bcrypt from 'bcryptjs';
import { type Kysely, sql } from 'kysely';
import type { SourceDb } from '../../../src/import/legacy.js';
import { openSourceDb, parseSourceDsn } from '../../../src/import/source-db.js';
import { randomString } from '../../../src/platform/crypto.js';
import type { DialectName } from '../../../src/platform/db/index.js';
import type { TestDatabase } from '../../databases.js';

/**
 * Source databases for the importer's tests, created the way GORM's AutoMigrate creates them for
 * one-api and new-api: same table and column names, the column types GORM picks per dialect
 * (Go int → bigint on PostgreSQL and MySQL, string → text / longtext, an indexed or defaulted
 * string → varchar(191) on MySQL, bool → boolean / numeric, gorm.DeletedAt → a date-time).
 */

/** The Go field kinds GORM maps differently per dialect. */
export type ColumnKind = 'id' | 'bigint' | 'int' | 'text' | 'indexed' | 'bool' | 'float' | 'datetime' | `raw:${string}`;

export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
  /** SQL after the type, e.g. "default 1" or "not null". */
  extra?: string;
}

export const column = (name: string, kind: ColumnKind, extra = ''): ColumnSpec => ({ name, kind, extra });

const TYPES: Record<Exclude<ColumnKind, `raw:${string}`>, Record<DialectName, string>> = {
  id: {
    sqlite: 'integer primary key autoincrement',
    postgres: 'bigserial primary key',
    mysql: 'bigint unsigned auto_increment primary key',
  },
  bigint: { sqlite: 'integer', postgres: 'bigint', mysql: 'bigint' },
  int: { sqlite: 'integer', postgres: 'integer', mysql: 'int' },
  text: { sqlite: 'text', postgres: 'text', mysql: 'longtext' },
  indexed: { sqlite: 'text', postgres: 'text', mysql: 'varchar(191)' },
  bool: { sqlite: 'numeric', postgres: 'boolean', mysql: 'boolean' },
  float: { sqlite: 'real', postgres: 'decimal', mysql: 'double' },
  datetime: { sqlite: 'datetime', postgres: 'timestamptz', mysql: 'datetime(3)' },
};

function typeOf(kind: ColumnKind, dialect: DialectName): string {
  return kind.startsWith('raw:') ? kind.slice(4) : TYPES[kind as keyof typeof TYPES][dialect];
}

export async function createTable(
  db: Kysely<unknown>,
  dialect: DialectName,
  table: string,
  columns: ColumnSpec[],
  primaryKey?: string[],
): Promise<void> {
  const quote = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const body = columns.map((spec) => `${quote(spec.name)} ${typeOf(spec.kind, dialect)} ${spec.extra ?? ''}`.trim());
  if (primaryKey) body.push(`primary key (${primaryKey.map(quote).join(', ')})`);
  await sql.raw(`create table ${quote(table)} (${body.join(', ')})`).execute(db);
}

/** Inserts rows as the product would have written them; `group` and `key` are quoted for every dialect. */
export async function insertRows(db: Kysely<unknown>, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (const row of rows) {
    const names = Object.keys(row);
    await sql`insert into ${sql.table(table)} (${sql.join(names.map((name) => sql.ref(name)))}) values (${sql.join(
      names.map((name) => row[name]),
    )})`.execute(db);
  }
}

/** A gorm.DeletedAt value: SQLite stores GORM's text form, the others a date-time. */
export function gormTime(dialect: DialectName, unixSeconds: number): Date | string {
  const date = new Date(unixSeconds * 1000);
  return dialect === 'sqlite' ? `${date.toISOString().replace('T', ' ').replace('Z', '')}+00:00` : date;
}

const hashes = new Map<string, string>();

/** A real bcrypt hash (cost 10, as Go's bcrypt.DefaultCost), computed once per password per test file. */
export function bcryptHash(password: string): string {
  let hash = hashes.get(password);
  if (!hash) {
    // Go's bcrypt writes $2a$, bcryptjs $2b$: the algorithm is the same, only the tag differs.
    hash = bcrypt.hashSync(password, 10).replace(/^\$2b\$/, '$2a$');
    hashes.set(password, hash);
  }
  return hash;
}

/** A legacy API key body: 48 letters and digits, stored without `sk-`. */
export const legacyKey = (): string => randomString(48);

/** A 32-hex redemption code or access token, as both products generate them. */
export const hex32 = (): string => randomString(32, '0123456789abcdef');

/** What a test may assert about a source database, with secrets in clear. */
export interface FixtureUser {
  id: number;
  username: string;
  password: string;
  role: number;
  status: number;
  quota: number;
  usedQuota: number;
  group: string;
  deleted: boolean;
}

export interface FixtureKey {
  id: number;
  userId: number;
  /** The body without `sk-`, as the client's old key has it after the prefix. */
  key: string;
  status: number;
  unlimited: boolean;
  remainQuota: number;
  expiredTime: number;
  models: string[];
  ips: string[];
  deleted: boolean;
}

export interface FixtureRedemption {
  id: number;
  key: string;
  quota: number;
  status: number;
  /** What One Hub should make of it (an expired unused new-api code arrives disabled). */
  expectedStatus: number;
}

export interface FixtureChannel {
  id: number;
  name: string;
  sourceType: number;
  /** One Hub's type id after translation. */
  expectedType: number;
  /** The key as One Hub's provider expects it. */
  expectedKey: string;
  expectedStatus: number;
}

export interface SourceFixture {
  users: FixtureUser[];
  keys: FixtureKey[];
  redemptions: FixtureRedemption[];
  channels: FixtureChannel[];
  logCount: number;
  options: Record<string, string>;
}

/** The fixture database opened the way the importer opens a source: read-only, through its own drivers. */
export function openFixtureSource(database: TestDatabase): Promise<SourceDb> {
  const target = database.target.sqlDsn || database.target.sqlitePath;
  return openSourceDb(parseSourceDsn(target));
}
