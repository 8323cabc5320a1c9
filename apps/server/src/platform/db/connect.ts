import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type Dialect as KyselyDialect, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import type * as Mysql2 from 'mysql2';
import type Pg from 'pg';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Human-readable target without credentials, for the start-up log. */
  describe: string;
  close(): Promise<void>;
}

export interface DatabaseTarget {
  sqlitePath: string;
  sqlDsn?: string | undefined;
  /** Told about errors on idle pooled connections, which are otherwise harmless. */
  onIdleError?: (error: Error) => void;
}

// The PostgreSQL and MySQL drivers are loaded only when configured: on the default SQLite set-up
// they would cost about 30 MB of memory for nothing.
const load = createRequire(import.meta.url);

function loadPg(): typeof Pg {
  const pg = load('pg') as typeof Pg;
  // PostgreSQL sends BIGINT and NUMERIC as strings; every such column here holds values well inside 2^53.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number.parseFloat(value));
  return pg;
}

export function dialectOf(target: DatabaseTarget): DialectName {
  if (!target.sqlDsn) return 'sqlite';
  return target.sqlDsn.startsWith('mysql://') ? 'mysql' : 'postgres';
}

export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  const dialect = dialectOf(target);
  const kyselyDialect = createDialect(dialect, target);
  const db = new Kysely<Database>({ dialect: kyselyDialect });
  return {
    db,
    dialect,
    describe: dialect === 'sqlite' ? `sqlite:${target.sqlitePath}` : redactDsn(target.sqlDsn ?? ''),
    close: () => db.destroy(),
  };
}

function createDialect(dialect: DialectName, target: DatabaseTarget): KyselyDialect {
  if (dialect === 'postgres') {
    const pool = new (loadPg().Pool)({ connectionString: target.sqlDsn, max: 20 });
    // An idle connection that dies (database restart, failover) must not take the process down;
    // the pool drops it and the next query opens a new one.
    pool.on('error', (error) => target.onIdleError?.(error));
    return new PostgresDialect({ pool });
  }
  if (dialect === 'mysql') {
    return new MysqlDialect({
      pool: (load('mysql2') as typeof Mysql2).createPool({
        uri: target.sqlDsn,
        connectionLimit: 20,
        supportBigNumbers: true,
        bigNumberStrings: false,
        decimalNumbers: true,
        charset: 'utf8mb4',
        timezone: 'Z',
      }),
    });
  }
  mkdirSync(dirname(target.sqlitePath), { recursive: true });
  restrictToOwner(target.sqlitePath);
  const sqlite = new BetterSqlite3(target.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  // SQLite gives the -wal and -shm files the database file's mode; these fix files an older version left.
  for (const suffix of ['-wal', '-shm']) restrictToOwner(target.sqlitePath + suffix, false);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return new SqliteDialect({ database: bindBooleansAsIntegers(sqlite) });
}

/**
 * The database holds password hashes and upstream keys: only its owner may read it (0600, like the
 * session secret). Created empty with that mode when missing, so it is never readable by others.
 */
function restrictToOwner(path: string, create = true): void {
  if (path === ':memory:' || path === '') return;
  if (!existsSync(path)) {
    if (!create) return;
    closeSync(openSync(path, 'a', 0o600));
  }
  chmodSync(path, 0o600);
}

type SqliteDatabase = ConstructorParameters<typeof SqliteDialect>[0]['database'];

/** Prepared statements kept per connection: preparing parses the SQL again each time (9 µs a relay request). */
export const STATEMENT_CACHE_SIZE = 256;

/**
 * A module function, not an arrow made per query: V8 holds optimised code through the function
 * objects made from it, so an arrow made per call, with none alive at a full collection, lost its
 * code and was compiled again about once a second under load (issue 37, fifth step).
 */
function integerForBoolean(value: unknown): unknown {
  return typeof value === 'boolean' ? Number(value) : value;
}

/**
 * better-sqlite3 refuses to bind booleans; SQLite stores them as 0/1, so convert on the way in.
 * Statements are prepared once per SQL text and reused (the last STATEMENT_CACHE_SIZE used): Kysely
 * prepares every query it runs, and the connection runs one query at a time (Kysely's mutex), so a
 * cached statement is never in use twice. SQLite re-prepares one itself when the schema changes.
 */
export function bindBooleansAsIntegers(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const convert = (parameters: ReadonlyArray<unknown>) => parameters.map(integerForBoolean);
  const statements = new Map<string, BetterSqlite3.Statement>();
  const statementFor = (sqlText: string) => {
    let statement = statements.get(sqlText);
    if (statement) {
      // Most recently used last: the first entry is the one to drop.
      statements.delete(sqlText);
    } else {
      statement = sqlite.prepare(sqlText);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
    }
    statements.set(sqlText, statement);
    return statement;
  };
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sqlText: string) {
      const statement = statementFor(sqlText);
      return {
        reader: statement.reader,
        all: (parameters: ReadonlyArray<unknown>) => statement.all(convert(parameters)),
        run: (parameters: ReadonlyArray<unknown>) => statement.run(convert(parameters)),
        iterate: (parameters: ReadonlyArray<unknown>) => statement.iterate(convert(parameters)),
      };
    },
  } as SqliteDatabase;
}

function redactDsn(dsn: string): string {
  try {
    const url = new URL(dsn);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'external database';
  }
}
