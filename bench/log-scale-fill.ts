// The fill of `npm run bench:logs` (bench/log-scale.ts): `rows` log rows generated inside the
// database by INSERT … SELECT, one local day at a time, and the daily roll-up summed from them.
//
// The data shape (the same as the JS fill it replaced, 2026-11 runs):
// - 1,000 users `user1`…`user1000`, skewed: user index u = floor(1000 · r^2.5), so `user1` makes
//   about 6% of the rows, `user2` 2%, and `user150` about 0.13%.
// - each user calls 4 of the 40 models, (7u + k) mod 40 with k = floor(4 · r²) (the first most);
//   the channel is 1 + (model mod 30), or the next one for 30% of the calls (30 channels).
// - 98% consume logs (with a model, a channel, the user's one key `user<u+1>-key<u mod 3>`,
//   prompt 50–4049 and completion 0–1499 tokens, quota prompt + 3 · completion), 1% system,
//   0.7% top-up, 0.3% manage (no model, channel or key; quota 500,000).
// - created_at rises with the row number evenly over the 90 days before `now`, as inserts do;
//   request ids `req-<row>`, source IP 198.51.100.<u mod 250>, 60% streamed.
// The "random" numbers are hashes of the row number (quadratic residues modulo 2^31 − 1), the
// same on every database, so all three hold the same rows.
//
// Roll-up: after each day's rows, its consume logs are summed per (user, channel, model) into
// `statistics` under that local date (process time zone, as the log writer's localDateOf), and at
// the end `statistics_days`, `statistics_channel_days` and `statistics_model_days` are summed from
// `statistics`: what `addToStatistics` writes for the same rows, batch by batch. The token days and
// hour totals of migration 0028 are summed afterwards by that migration's own backfill (one grouped
// INSERT … SELECT per local day, bench/log-scale.ts), which also times it.
import { LogType } from '@one-hub/contracts';
import { type RawBuilder, sql } from 'kysely';
import { localDayOf } from '../apps/server/src/api/statistics/dates.js';
import type { DatabaseHandle, Executor } from '../apps/server/src/platform/db/index.js';

export const DAYS = 90;
export const USERS = 1_000;
/** Models one user calls: most people stick to a handful. */
export const MODELS_PER_USER = 4;
export const MODELS = 40;
export const CHANNELS = 30;

export const username = (user: number) => `user${user + 1}`;
export const tokenName = (user: number) => `${username(user)}-key${user % 3}`;
export const modelName = (model: number) => `model-${model}`;
/** The models user index `user` calls, most called first. */
export const modelsOf = (user: number) =>
  Array.from({ length: MODELS_PER_USER }, (_, offset) => (user * 7 + offset) % MODELS);

const SPAN = DAYS * 86_400;
const PRIME = 2_147_483_647;
/** Rows of the numbers table; the generator crosses it with itself, so a statement writes at most its square. */
const NUMBERS = 1_000;
const CHUNK = NUMBERS * NUMBERS;

/** A hash of the row number in [0, 1): its own multiplier and offset per use, squared modulo the prime. */
function uniform(handle: DatabaseHandle, multiplier: number, offset: number): string {
  const linear = `((i * ${multiplier} + ${offset}) % ${PRIME})`;
  const residue = `((${linear} * ${linear}) % ${PRIME})`;
  if (handle.dialect === 'postgres') return `(${residue}::float8 / ${PRIME})`;
  return `(${residue} * 1e0 / ${PRIME})`;
}

/** The whole part of a non-negative number, as an integer on every database (SQLite's floor answers a real). */
function whole(handle: DatabaseHandle, expression: string): string {
  const type = { sqlite: 'integer', postgres: 'bigint', mysql: 'signed' }[handle.dialect];
  return `cast(floor(${expression}) as ${type})`;
}

/** The rows numbered from..to-1 of `rows`, as a SELECT of every log column in the insert's order. */
function generator(handle: DatabaseHandle, from: number, to: number, rows: number, start: number): RawBuilder<unknown> {
  const r = (multiplier: number, offset: number) => uniform(handle, multiplier, offset);
  const w = (expression: string) => whole(handle, expression);
  const count = to - from;
  const numbers = `select ${from} + a.n * ${NUMBERS} + b.n as i from bench_numbers a cross join bench_numbers b
    where a.n <= ${Math.floor((count - 1) / NUMBERS)} and a.n * ${NUMBERS} + b.n < ${count}`;
  const drawn = `select i,
      ${w(`${USERS} * power(${r(48_271, 11)}, 2.5)`)} as u,
      ${w(`${MODELS_PER_USER} * power(${r(69_621, 23)}, 2)`)} as k,
      ${r(16_807, 37)} as t, ${r(39_373, 41)} as p, ${r(40_692, 53)} as c,
      ${r(40_014, 67)} as s, ${r(45_991, 71)} as q, ${r(50_123, 83)} as v
    from (${numbers}) numbered`;
  const typed = `select i, u, (u * 7 + k) % ${MODELS} as m, s, q, v,
      case when t < 0.98 then ${LogType.consume} when t < 0.99 then ${LogType.system}
        when t < 0.997 then ${LogType.topup} else ${LogType.manage} end as type,
      50 + ${w('p * 4000')} as prompt, ${w('c * 1500')} as completion
    from (${drawn}) drawn`;
  const consume = `type = ${LogType.consume}`;
  const columns = `select u + 1, concat('user', u + 1), ${start} + ${w(`i * ${SPAN} / ${rows}`)}, type,
      case when ${consume} then '' else 'quota change recorded for the benchmark' end,
      case when ${consume} then prompt + completion * 3 else 500000 end,
      concat('198.51.100.', u % 250),
      case when ${consume} then concat('user', u + 1, '-key', u % 3) else '' end,
      case when ${consume} then concat('model-', m) else '' end,
      case when ${consume} then prompt else 0 end, case when ${consume} then completion else 0 end,
      case when ${consume} then 1 + (m + case when s < 0.3 then 1 else 0 end) % ${CHANNELS} else 0 end,
      case when ${consume} then 200 + ${w('q * 5000')} else 0 end,
      v < 0.6,
      case when ${consume} then '{"group_name":"default","group_ratio":1,"input_ratio":0.15,"output_ratio":0.6}'
        else '{}' end,
      case when ${consume} then (u + 1) * 3 + u % 3 else 0 end,
      case when ${consume} then concat('req-', i) else '' end
    from (${typed}) typed order by i`;
  return sql.raw(columns);
}

const LOG_COLUMNS = `user_id, username, created_at, type, content, quota, source_ip, token_name, model_name,
  prompt_tokens, completion_tokens, channel_id, request_time, is_stream, metadata, token_id, request_id`;
const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'];

/** The first row number created at or after `moment` (created_at = start + floor(row · SPAN / rows)). */
function firstRowAt(moment: number, rows: number, start: number): number {
  return Math.min(rows, Math.max(0, Math.ceil(((moment - start) * rows) / SPAN)));
}

/** The day's consume logs summed per user, channel and model under its date, as the log writer's roll-up. */
async function rollUpDay(executor: Executor, day: { date: string; start: number; end: number }): Promise<void> {
  await sql`insert into statistics (date, user_id, channel_id, model_name, request_count, quota, prompt_tokens,
      completion_tokens, request_time)
    select ${day.date}, user_id, channel_id, model_name, count(*), sum(quota), sum(prompt_tokens),
      sum(completion_tokens), sum(request_time)
    from logs where type = ${LogType.consume} and created_at >= ${day.start} and created_at < ${day.end}
    group by user_id, channel_id, model_name`.execute(executor);
}

async function sumStatistics(handle: DatabaseHandle, table: string, keys: string[]): Promise<void> {
  const sums = COUNTERS.map((counter) => `sum(${counter})`).join(', ');
  const columns = [...keys, ...COUNTERS].join(', ');
  await sql
    .raw(
      `insert into ${table} (${columns}) select ${keys.join(', ')}, ${sums} from statistics group by ${keys.join(', ')}`,
    )
    .execute(handle.db);
}

async function createNumbers(handle: DatabaseHandle): Promise<void> {
  await handle.db.schema
    .createTable('bench_numbers')
    .addColumn('n', 'bigint', (column) => column.primaryKey())
    .execute();
  const values = Array.from({ length: NUMBERS }, (_, n) => ({ n }));
  await handle.db
    .insertInto('bench_numbers' as never)
    .values(values as never)
    .execute();
}

/** The index the day's roll-up reads, kept while the rows go in. */
const KEPT_INDEX = 'idx_logs_created_at';

/**
 * The statements that create the secondary indexes of `logs` as the migrations left them, read
 * from the database's own catalog, so they can be dropped for the fill and built again after it.
 */
async function logIndexStatements(handle: DatabaseHandle): Promise<{ name: string; create: string }[]> {
  if (handle.dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where type = 'index' and tbl_name = 'logs' and sql is not null`.execute(handle.db);
    return rows.map((row) => ({ name: row.name, create: row.sql }));
  }
  if (handle.dialect === 'postgres') {
    const { rows } = await sql<{ name: string; create: string }>`select indexname as name, indexdef as "create"
      from pg_indexes where tablename = 'logs' and schemaname = current_schema() and indexname <> 'logs_pkey'`.execute(
      handle.db,
    );
    return rows;
  }
  const { rows } = await sql<{ name: string; columns: string; unique: number | string }>`select index_name as name,
      group_concat(column_name order by seq_in_index) as columns, min(non_unique) = 0 as "unique"
    from information_schema.statistics where table_schema = database() and table_name = 'logs'
      and index_name <> 'PRIMARY' group by index_name`.execute(handle.db);
  return rows.map((row) => ({
    name: row.name,
    create: `create ${Number(row.unique) ? 'unique ' : ''}index ${row.name} on logs (${row.columns})`,
  }));
}

/**
 * Fills `logs` with `rows` rows over the 90 days before `now`, and the roll-up from them. The
 * secondary indexes but the time one are dropped first and built again from the rows at the end,
 * with the migrations' own definitions: sorting once is many times faster than 12 indexes grown
 * row by row (a built index is packed tighter than a grown one; the figures are read with that).
 */
export async function fillLogs(handle: DatabaseHandle, rows: number, now: number): Promise<void> {
  await createNumbers(handle);
  const indexes = (await logIndexStatements(handle)).filter((index) => index.name !== KEPT_INDEX);
  for (const { name } of indexes) {
    await sql.raw(handle.dialect === 'mysql' ? `drop index ${name} on logs` : `drop index ${name}`).execute(handle.db);
  }
  const start = now - SPAN;
  let written = 0;
  let reported = 0;
  for (let day = localDayOf(start); day.start < now; day = localDayOf(day.end)) {
    const first = firstRowAt(Math.max(day.start, start), rows, start);
    const last = firstRowAt(day.end, rows, start);
    await handle.db.transaction().execute(async (transaction) => {
      // The generator's row estimate is far above what it makes, and PostgreSQL would spend seconds
      // compiling each statement (JIT) for the rows it expects.
      if (handle.dialect === 'postgres') await sql`set local jit = off`.execute(transaction);
      for (let from = first; from < last; from += CHUNK) {
        const to = Math.min(last, from + CHUNK);
        await sql`insert into logs (${sql.raw(LOG_COLUMNS)}) ${generator(handle, from, to, rows, start)}`.execute(
          transaction,
        );
      }
      await rollUpDay(transaction, day);
    });
    written = last;
    if (written - reported >= 1_000_000) {
      reported = written;
      process.stderr.write(`  ${handle.dialect}: ${(written / 1_000_000).toFixed(1)}M rows\n`);
    }
  }
  await sumStatistics(handle, 'statistics_days', ['date']);
  await sumStatistics(handle, 'statistics_channel_days', ['date', 'channel_id']);
  await sumStatistics(handle, 'statistics_model_days', ['date', 'model_name']);
  await handle.db.schema.dropTable('bench_numbers').execute();
  for (const { create } of indexes) await sql.raw(create).execute(handle.db);
}
