import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { randomString } from '../src/platform/crypto.js';
import {
  type DatabaseHandle,
  type DatabaseTarget,
  type DialectName,
  migrateToLatest,
  openDatabase,
} from '../src/platform/db/index.js';
import { migrateUpTo } from '../src/platform/db/migrations/index.js';

/**
 * Real databases for tests: SQLite always; PostgreSQL and MySQL when TEST_PG_URL / TEST_MYSQL_URL
 * are set (CI always sets them). Each test file gets its own fresh database, dropped afterwards.
 */
export interface TestDatabase {
  dialect: DialectName;
  target: DatabaseTarget;
  drop(): Promise<void>;
}

const pgUrl = process.env.TEST_PG_URL;
const mysqlUrl = process.env.TEST_MYSQL_URL;

export const availableDialects: DialectName[] = [
  'sqlite',
  ...(pgUrl ? (['postgres'] as const) : []),
  ...(mysqlUrl ? (['mysql'] as const) : []),
];

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer(dialect: 'postgres' | 'mysql', statement: string): Promise<void> {
  const admin =
    dialect === 'postgres'
      ? new Kysely<unknown>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: pgUrl, max: 1 }) }),
        })
      : new Kysely<unknown>({ dialect: new MysqlDialect({ pool: createPool({ uri: mysqlUrl, connectionLimit: 1 }) }) });
  try {
    await sql.raw(statement).execute(admin);
  } finally {
    await admin.destroy();
  }
}

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-test-'));
    return {
      dialect,
      target: { sqlitePath: join(directory, 'one-hub.db') },
      drop: async () => rmSync(directory, { recursive: true, force: true }),
    };
  }
  const name = `onehub_test_${randomString(10, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
  const baseUrl = dialect === 'postgres' ? pgUrl : mysqlUrl;
  if (!baseUrl) throw new Error(`no test URL for ${dialect}`);
  await onServer(dialect, `create database ${name}`);
  return {
    dialect,
    target: { sqlitePath: '', sqlDsn: withDatabase(baseUrl, name) },
    drop: () =>
      onServer(
        dialect,
        dialect === 'postgres' ? `drop database if exists ${name} with (force)` : `drop database if exists ${name}`,
      ),
  };
}

/**
 * A fresh database of `dialect` for the enclosing `describe`: created and migrated before its
 * tests (to the latest schema, or `upTo` a migration, as an earlier release left it), closed and
 * dropped after them (after the block's own `afterAll`s, which run first). What it answers stands
 * for the handle that `beforeAll` opens, so tests and hooks use it as they would the handle itself;
 * reading it before then is a mistake, said plainly.
 */
export function useMigratedDatabase(
  dialect: DialectName,
  { upTo }: { upTo?: Parameters<typeof migrateUpTo>[1] } = {},
): DatabaseHandle {
  let database: TestDatabase | undefined;
  let opened: DatabaseHandle | undefined;
  const current = () => {
    if (!opened) throw new Error(`the ${dialect} test database is not open: read it in a hook or a test`);
    return opened;
  };
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    opened = openDatabase(database.target);
    if (upTo) await migrateUpTo(opened, upTo);
    else await migrateToLatest(opened);
  });
  afterAll(async () => {
    await opened?.close();
    await database?.drop();
  });
  return {
    get db() {
      return current().db;
    },
    get dialect() {
      return current().dialect;
    },
    get describe() {
      return current().describe;
    },
    close: () => current().close(),
  };
}
