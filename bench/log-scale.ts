// `npm run bench:logs [rows]`: the console's log queries on a large `logs` table. Fills a fresh
// database of each dialect (SQLite in a temporary directory; PostgreSQL and MySQL in a scratch
// database on TEST_PG_URL / TEST_MYSQL_URL, created and dropped here) through the real migrations
// with `rows` logs (default 10,000,000) spread over 90 days, then times every query the Logs screen
// and the dashboards issue, through the services the API routes call. Prints the median of 5 runs.
// Not part of `npm run bench` or CI: filling 10M rows takes minutes per database.
//   node --import tsx bench/log-scale.ts 1000000 --dialects sqlite,postgres
import { LogType, Role } from '@one-hub/contracts';
import { sql } from 'kysely';
import { LogService } from '../apps/server/src/api/log/service.js';
import { localDateDaysBefore } from '../apps/server/src/api/statistics/dates.js';
import { StatisticsRepository } from '../apps/server/src/api/statistics/repo.js';
import { addToStatistics, consumeTotalsByDay } from '../apps/server/src/api/statistics/rollup.js';
import {
  type DatabaseHandle,
  type DialectName,
  migrateToLatest,
  type NewLogRow,
  openDatabase,
  type UserRow,
} from '../apps/server/src/platform/db/index.js';
import { seededRandom } from '../apps/server/test/crash-load.js';
import { availableDialects, createTestDatabase } from '../apps/server/test/databases.js';

const MAX_ROWS = 50_000_000;
const DAYS = 90;
const USERS = 1_000;
/** Models one user calls: most people stick to a handful. */
const MODELS_PER_USER = 4;
const MODELS = 40;
const CHANNELS = 30;
const ROWS_PER_INSERT = 1_000;
const INSERTS_PER_TRANSACTION = 20;
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

/** Skewed pick from 0..count-1: a few users and models carry most of the traffic, as in real installations. */
function skewed(random: () => number, count: number, power: number): number {
  return Math.min(count - 1, Math.floor(count * random() ** power));
}

function logType(random: () => number): number {
  const roll = random();
  if (roll < 0.98) return LogType.consume;
  if (roll < 0.99) return LogType.system;
  if (roll < 0.997) return LogType.topup;
  return LogType.manage;
}

const username = (user: number) => `user${user + 1}`;
const tokenName = (user: number, token: number) => `${username(user)}-key${token}`;
const modelName = (model: number) => `model-${model}`;

/** One log row: times rise with the row number across the 90 days, as inserts do. */
function makeRow(random: () => number, index: number, rows: number, start: number): NewLogRow {
  const user = skewed(random, USERS, 2.5);
  const model = (user * 7 + skewed(random, MODELS_PER_USER, 2)) % MODELS;
  const type = logType(random);
  const consume = type === LogType.consume;
  const prompt = consume ? 50 + Math.floor(random() * 4_000) : 0;
  const completion = consume ? Math.floor(random() * 1_500) : 0;
  return {
    user_id: user + 1,
    username: username(user),
    created_at: start + Math.floor((index / rows) * DAYS * 86_400),
    type,
    content: consume ? '' : 'quota change recorded for the benchmark',
    quota: consume ? prompt + completion * 3 : 500_000,
    source_ip: `198.51.100.${user % 250}`,
    token_name: consume ? tokenName(user, user % 3) : '',
    model_name: consume ? modelName(model) : '',
    prompt_tokens: prompt,
    completion_tokens: completion,
    channel_id: consume ? 1 + ((model + (random() < 0.3 ? 1 : 0)) % CHANNELS) : 0,
    request_time: consume ? 200 + Math.floor(random() * 5_000) : 0,
    is_stream: random() < 0.6,
    metadata: consume ? '{"group_name":"default","group_ratio":1,"input_ratio":0.15,"output_ratio":0.6}' : '{}',
    token_id: consume ? (user + 1) * 3 + (user % 3) : 0,
    request_id: consume ? `req-${index.toString(36).padStart(10, '0')}` : '',
  };
}

/**
 * Multi-row inserts, many to a transaction, each transaction also adding its rows to the daily
 * roll-up through the server's own functions (consumeTotalsByDay, addToStatistics), as the log
 * writer does per batch. Answers how many roll-up rows there are at the end.
 */
async function fill(handle: DatabaseHandle, rows: number, now: number): Promise<string> {
  // The accounts the logs belong to: the username filter of the statistics looks them up.
  for (let first = 0; first < USERS; first += ROWS_PER_INSERT) {
    const accounts = Array.from({ length: Math.min(ROWS_PER_INSERT, USERS - first) }, (_, offset) => ({
      username: username(first + offset),
      password: '',
      aff_code: `bench${first + offset}`,
      created_time: now - DAYS * 86_400,
    }));
    await handle.db
      .insertInto('users')
      .values(accounts as never)
      .execute();
  }
  // SQLite's default 2 MB page cache makes a fill of millions of rows crawl; queries are timed with the default back.
  if (handle.dialect === 'sqlite') await sql.raw('pragma cache_size = -1000000').execute(handle.db);
  const random = seededRandom(20_261_128);
  const start = now - DAYS * 86_400;
  let index = 0;
  while (index < rows) {
    await handle.db.transaction().execute(async (transaction) => {
      const written: NewLogRow[] = [];
      for (let insert = 0; insert < INSERTS_PER_TRANSACTION && index < rows; insert++) {
        const batch: NewLogRow[] = [];
        for (; batch.length < ROWS_PER_INSERT && index < rows; index++) batch.push(makeRow(random, index, rows, start));
        await transaction.insertInto('logs').values(batch).execute();
        written.push(...batch);
      }
      await addToStatistics(transaction, handle.dialect, consumeTotalsByDay(written));
    });
    if (index % 1_000_000 === 0) process.stderr.write(`  ${handle.dialect}: ${index / 1_000_000}M rows\n`);
  }
  if (handle.dialect === 'sqlite') await sql.raw('pragma cache_size = -2000').execute(handle.db);
  // Fresh planner statistics, and on PostgreSQL the visibility map autovacuum keeps on a table
  // that grew over time (without it, index-only scans, such as the capped counts, read the heap).
  const settle = {
    sqlite: 'analyze',
    postgres: 'vacuum analyze',
    mysql: 'analyze table logs, statistics, statistics_channel_days, statistics_model_days',
  };
  await sql.raw(settle[handle.dialect]).execute(handle.db);
  const counts: string[] = [];
  for (const table of ['statistics', 'statistics_channel_days', 'statistics_model_days'] as const) {
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

/** Every query the Logs screen and the usage dashboards send, as their routes call the services. */
function consoleQueries(handle: DatabaseHandle, now: number): [string, () => Promise<unknown>][] {
  const logs = new LogService(handle);
  const statistics = new StatisticsRepository(handle);
  // Root's view: every log, as the Logs screen shows it to root.
  const root = { id: 0, role: Role.root } as UserRow;
  const heavy = { id: 1 } as UserRow;
  const typical = { id: 150 } as UserRow;
  const page = { page: 1, size: 10 };
  const dayAgo = (days: number) => now - days * 86_400;
  const today = new Date(now * 1000);
  return [
    ['admin list, unfiltered', () => logs.list(root, { ...page })],
    ['admin list, unfiltered, page 500', () => logs.list(root, { page: 500, size: 10 })],
    ['admin list, by model (common)', () => logs.list(root, { ...page, model_name: modelName(0) })],
    ['admin list, by model (rare)', () => logs.list(root, { ...page, model_name: modelName(MODELS - 1) })],
    ['admin list, by username (heavy user)', () => logs.list(root, { ...page, username: username(0) })],
    ['admin list, by username (typical user)', () => logs.list(root, { ...page, username: username(149) })],
    ['admin list, by token', () => logs.list(root, { ...page, token_name: tokenName(149, 149 % 3) })],
    ['admin list, by channel', () => logs.list(root, { ...page, channel_id: 5 })],
    ['admin list, by type (top-up)', () => logs.list(root, { ...page, log_type: LogType.topup })],
    ['admin list, by request id', () => logs.list(root, { ...page, request_id: 'req-0000000abc' })],
    ['admin list, by source IP', () => logs.list(root, { ...page, source_ip: '198.51.100.149' })],
    [
      'admin list, one day a month ago',
      () => logs.list(root, { ...page, start_timestamp: dayAgo(31), end_timestamp: dayAgo(30) }),
    ],
    [
      'admin list, model + one week',
      () =>
        logs.list(root, { ...page, model_name: modelName(3), start_timestamp: dayAgo(14), end_timestamp: dayAgo(7) }),
    ],
    ['admin list, sorted by quota', () => logs.list(root, { ...page, order: '-quota' })],
    ['own list (heavy user)', () => logs.listOwn(heavy, { ...page })],
    ['own list (typical user)', () => logs.listOwn(typical, { ...page })],
    ['own list, by model (typical user)', () => logs.listOwn(typical, { ...page, model_name: modelName(3) })],
    ['own list, by token (typical user)', () => logs.listOwn(typical, { ...page, token_name: tokenName(149, 2) })],
    ['admin stat, all time', () => logs.stat(root, {})],
    ['admin stat, by model', () => logs.stat(root, { model_name: modelName(0) })],
    ['admin stat, by channel', () => logs.stat(root, { channel: 5 })],
    ['admin stat, last 7 days to now', () => logs.stat(root, { start_timestamp: dayAgo(7), end_timestamp: now })],
    [
      'admin stat, one day a month ago',
      () => logs.stat(root, { start_timestamp: dayAgo(31), end_timestamp: dayAgo(30) }),
    ],
    ['admin stat, by username (heavy user)', () => logs.stat(root, { username: username(0) })],
    ['admin stat, by username (typical user)', () => logs.stat(root, { username: username(149) })],
    ['admin stat, by token', () => logs.stat(root, { token_name: tokenName(149, 149 % 3) })],
    ['own stat (heavy user)', () => logs.ownStat(heavy, {})],
    ['own stat (typical user)', () => logs.ownStat(typical, {})],
    ['own stat, last 7 days (heavy user)', () => logs.ownStat(heavy, { start_timestamp: dayAgo(7) })],
    ['own stat, by token (typical user)', () => logs.ownStat(typical, { token_name: tokenName(149, 2) })],
    [
      'dashboard, 7 days (heavy user)',
      () =>
        statistics.usageByDay(
          { userId: 1, fromDate: localDateDaysBefore(today, 6), toDate: localDateDaysBefore(today, 0) },
          'model',
        ),
    ],
    [
      'analytics, 30 days by channel',
      () =>
        statistics.usageByDay(
          { fromDate: localDateDaysBefore(today, 29), toDate: localDateDaysBefore(today, 0) },
          'channel',
        ),
    ],
    [
      'analytics, 30 days by model',
      () =>
        statistics.usageByDay(
          { fromDate: localDateDaysBefore(today, 29), toDate: localDateDaysBefore(today, 0) },
          'model',
        ),
    ],
  ];
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
    const results = new Map<string, number>();
    for (const [name, run] of consoleQueries(handle, now)) results.set(name, await median(run));
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
