// `npm run bench:logs [rows]`: the console's log queries on a large `logs` table. Fills a fresh
// database of each dialect (SQLite in a temporary directory; PostgreSQL and MySQL in a scratch
// database on TEST_PG_URL / TEST_MYSQL_URL, created and dropped here) through the real migrations
// with `rows` logs (default 10,000,000) spread over 90 days, then times every query the Logs screen
// and the dashboards issue, through the services the API routes call. Prints the median of 5 runs.
// Not part of `npm run bench` or CI: filling 10M rows takes minutes per database.
//   node --import tsx bench/log-scale.ts 1000000 --dialects sqlite,postgres
// (`--dialects` takes any of sqlite, postgres, mysql; the default is every one configured.)
import { sql } from 'kysely';
import {
  type DatabaseHandle,
  type DialectName,
  migrateToLatest,
  openDatabase,
} from '../apps/server/src/platform/db/index.js';
import { rollUpExistingLogs } from '../apps/server/src/platform/db/migrations/0028_statistics_token_days.js';
import { availableDialects, createTestDatabase } from '../apps/server/test/databases.js';
import { DAYS, fillLogs, USERS, username } from './log-scale-fill.js';
import { logIndexUse } from './log-scale-plans.js';
import { consoleQueries } from './log-scale-queries.js';
import { describeStorage, logStorage } from './log-storage.js';

const MAX_ROWS = 50_000_000;
const RUNS = 5;

function parseArguments(): { rows: number; dialects: DialectName[] } {
  const args = process.argv.slice(2);
  const flag = args.indexOf('--dialects');
  const dialects = flag >= 0 ? (args[flag + 1] ?? '').split(',') : availableDialects;
  const positional = flag < 0 ? args : args.filter((_, index) => index !== flag && index !== flag + 1);
  const rows = Number(positional[0] ?? 10_000_000);
  if (!Number.isSafeInteger(rows) || rows < 1_000 || rows > MAX_ROWS) {
    throw new Error(`rows must be a whole number from 1000 to ${MAX_ROWS}`);
  }
  for (const dialect of dialects) {
    if (!availableDialects.includes(dialect as DialectName)) {
      throw new Error(`dialect ${dialect} is not available (set TEST_PG_URL / TEST_MYSQL_URL)`);
    }
  }
  return { rows, dialects: dialects as DialectName[] };
}

/**
 * The accounts, then the logs and their roll-up generated in the database (bench/log-scale-fill.ts
 * describes the data). Answers how many roll-up rows there are at the end.
 */
async function fill(handle: DatabaseHandle, rows: number, now: number): Promise<string> {
  // The accounts the logs belong to: the username filter of the statistics looks them up.
  const accounts = Array.from({ length: USERS }, (_, user) => ({
    username: username(user),
    password: '',
    aff_code: `bench${user}`,
    created_time: now - DAYS * 86_400,
  }));
  await handle.db
    .insertInto('users')
    .values(accounts as never)
    .execute();
  // SQLite's default 2 MB page cache makes a fill of millions of rows crawl; queries are timed with the default back.
  if (handle.dialect === 'sqlite') await sql.raw('pragma cache_size = -1000000').execute(handle.db);
  await fillLogs(handle, rows, now);
  if (handle.dialect === 'sqlite') await sql.raw('pragma cache_size = -2000').execute(handle.db);
  // The token days and hour totals (migration 0028) by the migration's own backfill, on the full
  // table with every index, one grouped INSERT … SELECT per day: what upgrading a database of this
  // size costs, and the same sums the log writer adds batch by batch.
  const backfilling = Date.now();
  await rollUpExistingLogs(handle.db, handle.dialect);
  process.stderr.write(
    `${handle.dialect}: migration 0028 backfill took ${Math.round((Date.now() - backfilling) / 1000)} s\n`,
  );
  // Fresh planner statistics, and on PostgreSQL the visibility map autovacuum keeps on a table
  // that grew over time (without it, index-only scans, such as the capped counts, read the heap).
  const settle = {
    sqlite: 'analyze',
    postgres: 'vacuum analyze',
    mysql:
      'analyze table logs, statistics, statistics_channel_days, statistics_model_days, statistics_token_days, statistics_hours',
  };
  await sql.raw(settle[handle.dialect]).execute(handle.db);
  const counts: string[] = [];
  const tables = ['statistics', 'statistics_channel_days', 'statistics_model_days', 'statistics_token_days'] as const;
  for (const table of tables) {
    const rollUp = await handle.db
      .selectFrom(table as 'statistics')
      .select(sql<number | string>`count(*)`.as('rows'))
      .executeTakeFirstOrThrow();
    counts.push(`${rollUp.rows} in ${table}`);
  }
  return counts.join(', ');
}

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let attempt = 0; attempt < RUNS; attempt++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((left, right) => left - right);
  return times[Math.floor(RUNS / 2)] ?? 0;
}

async function benchDialect(dialect: DialectName, rows: number): Promise<Map<string, number>> {
  const database = await createTestDatabase(dialect);
  const handle = openDatabase(database.target);
  try {
    await migrateToLatest(handle);
    const now = Math.floor(Date.now() / 1000);
    const filling = Date.now();
    const rollUps = await fill(handle, rows, now);
    process.stderr.write(
      `${dialect}: ${rows} logs and roll-up rows: ${rollUps}; filled in ${Math.round((Date.now() - filling) / 1000)} s\n`,
    );
    process.stderr.write(`${dialect}: logs with indexes: ${describeStorage(await logStorage(handle))}\n`);
    const results = new Map<string, number>();
    for (const [name, run] of consoleQueries(handle, now)) results.set(name, await median(run));
    for (const [index, users] of await logIndexUse(handle, now)) {
      const shown = users.length > 3 ? `${users.slice(0, 3).join('; ')}; …` : users.join('; ');
      process.stderr.write(`${dialect}: index ${index}: ${users.length} queries${shown ? ` (${shown})` : ''}\n`);
    }
    return results;
  } finally {
    await handle.close();
    await database.drop();
  }
}

const { rows, dialects } = parseArguments();
const results = new Map<DialectName, Map<string, number>>();
for (const dialect of dialects) results.set(dialect, await benchDialect(dialect, rows));

const names = [...(results.values().next().value?.keys() ?? [])];
console.log(`\nConsole log queries at ${rows.toLocaleString('en-US')} log rows, median of ${RUNS} (ms)\n`);
console.log(`| Query | ${dialects.join(' | ')} |`);
console.log(`|---|${dialects.map(() => '---:').join('|')}|`);
for (const name of names) {
  const cells = dialects.map((dialect) => (results.get(dialect)?.get(name) ?? 0).toFixed(1));
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
