import { LogType } from '@one-hub/contracts';
import { type Insertable, sql } from 'kysely';
import { insertWithKeptText } from '../../platform/db/compiled-texts.js';
import type { Database, DialectName, Executor, NewLogRow } from '../../platform/db/index.js';
import type { StatisticsHoursTable, StatisticsTable, StatisticsTokenDaysTable } from '../../platform/db/schema.js';
import { localDateOf } from './dates.js';

/** What one batch adds to one `statistics` row: a row of its own, keyed and counted alike. */
export type StatisticsDelta = StatisticsTable;

const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;
const KEY_COLUMNS = ['date', 'user_id', 'channel_id', 'model_name'] as const;
// Nine columns a row: well under every database's bound-parameter limit.
const UPSERT_CHUNK = 500;

type Counters = Pick<StatisticsDelta, (typeof COUNTERS)[number]>;
type KeyValues = Record<string, string | number>;

/** Token days (migration 0028): the consume logs per (local day, user, key name, model). */
export type TokenDayDelta = Insertable<StatisticsTokenDaysTable> & Counters;
/** Hour totals (migration 0028): the consume logs per UTC hour, keyed by the Unix time it starts at. */
export type HourDelta = Insertable<StatisticsHoursTable> & Counters;

const TOKEN_KEY_COLUMNS = ['date', 'user_id', 'token_name', 'model_name'] as const;
const HOUR = 3_600;

/** localDateOf, remembering the last second asked: a batch's rows share a handful of seconds. */
function dateMemo(): (seconds: number) => string {
  let last = Number.NaN;
  let date = '';
  return (seconds) => {
    if (seconds !== last) [last, date] = [seconds, localDateOf(seconds)];
    return date;
  };
}

const zero = (): Counters => ({ request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 });

function count(total: Counters, row: NewLogRow): void {
  total.request_count += 1;
  total.quota += row.quota;
  total.prompt_tokens += row.prompt_tokens;
  total.completion_tokens += row.completion_tokens;
  total.request_time += row.request_time;
}

/** What one batch of log rows adds to each roll-up that logs feed, each in its table's key order. */
export interface ConsumeTotals {
  /** Per (local day, user, channel, model): the `statistics` rows. */
  byDay: StatisticsDelta[];
  /** Per (local day, user, key name, model): the `statistics_token_days` rows. */
  byToken: TokenDayDelta[];
  /** Per UTC hour: the `statistics_hours` rows. */
  byHour: HourDelta[];
}

/**
 * Sums the consume logs of a batch per each roll-up's key, in one pass. Other log types record
 * money moving, not usage, and are left out, as the reference's roll-up does. Each list is sorted
 * by its table's key: one order for every writer, so concurrent batches lock shared rows in the
 * same sequence.
 */
export function consumeTotals(rows: readonly NewLogRow[]): ConsumeTotals {
  const dateOf = dateMemo();
  const days = new Map<string, StatisticsDelta>();
  const tokens = new Map<string, TokenDayDelta>();
  const hours = new Map<number, HourDelta>();
  for (const row of rows) {
    if (row.type !== LogType.consume) continue;
    const date = dateOf(row.created_at);
    const { user_id, channel_id, model_name, token_name } = row;
    const dayKey = `${date}\u0000${user_id}\u0000${channel_id}\u0000${model_name}`;
    let day = days.get(dayKey);
    if (!day) {
      day = { date, user_id, channel_id, model_name, ...zero() };
      days.set(dayKey, day);
    }
    count(day, row);
    const tokenKey = `${date}\u0000${user_id}\u0000${token_name}\u0000${model_name}`;
    let token = tokens.get(tokenKey);
    if (!token) {
      token = { date, user_id, token_name, model_name, ...zero() };
      tokens.set(tokenKey, token);
    }
    count(token, row);
    const hourStart = row.created_at - (row.created_at % HOUR);
    let hour = hours.get(hourStart);
    if (!hour) {
      hour = { hour_start: hourStart, ...zero() };
      hours.set(hourStart, hour);
    }
    count(hour, row);
  }
  return {
    byDay: sortedBy([...days.values()], KEY_COLUMNS),
    byToken: sortedBy([...tokens.values()], TOKEN_KEY_COLUMNS),
    byHour: sortedBy([...hours.values()], ['hour_start']),
  };
}

function sortedBy<Row extends object>(rows: Row[], columns: readonly string[]): Row[] {
  return rows.length < 2 ? rows : rows.sort((left, right) => compareKeys(left, right, columns));
}

function compareKeys(left: object, right: object, columns: readonly string[]): number {
  for (const column of columns) {
    const [a, b] = [(left as KeyValues)[column] ?? '', (right as KeyValues)[column] ?? ''];
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** The `statistics` rows of a batch of log rows (consumeTotals' `byDay`). */
export function consumeTotalsByDay(rows: readonly NewLogRow[]): StatisticsDelta[] {
  return consumeTotals(rows).byDay;
}

type KeyColumn = 'channel_id' | 'model_name';
type DayTotals = Omit<StatisticsDelta, 'user_id' | 'channel_id' | 'model_name'>;

/**
 * The same counters per day alone (for `statistics_days`), or per day and channel or model (for
 * `statistics_channel_days`, `statistics_model_days`), in key order.
 */
function totalsByDate(deltas: readonly StatisticsDelta[], keyColumn?: KeyColumn): DayTotals[] {
  const days = new Map<string, DayTotals & Partial<Pick<StatisticsDelta, KeyColumn>>>();
  for (const delta of deltas) {
    const key = keyColumn ? `${delta.date}\u0000${delta[keyColumn]}` : delta.date;
    let day = days.get(key);
    if (!day) {
      day = { date: delta.date, ...zero() };
      if (keyColumn) Object.assign(day, { [keyColumn]: delta[keyColumn] });
      days.set(key, day);
    }
    for (const column of COUNTERS) day[column] += delta[column];
  }
  const columns = keyColumn ? ['date', keyColumn] : ['date'];
  return [...days.values()].sort((left, right) => compareKeys(left, right, columns));
}

/**
 * Adds each row's counters to the stored row with the same key, creating it when missing, in
 * single statements: `INSERT … ON CONFLICT DO UPDATE SET c = c + excluded.c` on SQLite and
 * PostgreSQL, `INSERT … ON DUPLICATE KEY UPDATE c = c + VALUES(c)` on MySQL and MariaDB. No read
 * first, so concurrent writers (other nodes) cannot lose each other's counts.
 */
type RollUpTable =
  | 'statistics'
  | 'statistics_days'
  | 'statistics_channel_days'
  | 'statistics_model_days'
  | 'statistics_token_days'
  | 'statistics_hours';

async function addCounters<Table extends RollUpTable>(
  executor: Executor,
  dialect: DialectName,
  table: Table,
  keyColumns: readonly string[],
  rows: readonly Insertable<Database[Table]>[],
): Promise<void> {
  const added = Object.fromEntries(
    COUNTERS.map((column) => [
      column,
      dialect === 'mysql'
        ? sql<number>`${sql.ref(column)} + values(${sql.ref(column)})`
        : sql<number>`${sql.ref(`${table}.${column}`)} + excluded.${sql.ref(column)}`,
    ]),
  );
  const build = (chunk: readonly Insertable<Database[Table]>[]) => {
    const insert = executor.insertInto(table as 'statistics').values(chunk as never);
    return dialect === 'mysql'
      ? insert.onDuplicateKeyUpdate(added)
      : insert.onConflict((conflict) => conflict.columns(keyColumns as never).doUpdateSet(added));
  };
  const columns = [...keyColumns, ...COUNTERS] as (keyof Insertable<Database[Table]> & string)[];
  for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
    await insertWithKeptText(executor, `${dialect}:${table}`, columns, rows.slice(start, start + UPSERT_CHUNK), build);
  }
}

/**
 * Adds the deltas to `statistics`, and their sums per day to `statistics_days` and per day and
 * channel or model to `statistics_channel_days` and `statistics_model_days` (migration 0015), in
 * the caller's transaction, so they always agree. Rows are written in key order by every writer, so
 * concurrent batches lock shared rows in the same sequence.
 */
export async function addToStatistics(
  executor: Executor,
  dialect: DialectName,
  deltas: readonly StatisticsDelta[],
): Promise<void> {
  if (deltas.length === 0) return;
  await addCounters(executor, dialect, 'statistics', KEY_COLUMNS, deltas);
  await addCounters(executor, dialect, 'statistics_days', ['date'], totalsByDate(deltas));
  for (const keyColumn of ['channel_id', 'model_name'] as const) {
    const table = keyColumn === 'channel_id' ? 'statistics_channel_days' : 'statistics_model_days';
    await addCounters(executor, dialect, table, ['date', keyColumn], totalsByDate(deltas, keyColumn) as never);
  }
}

/**
 * What a batch of log rows adds to every roll-up, in the caller's transaction (the one that
 * inserts the rows): `statistics` and its sums (unless `statistics` is false: an import whose source
 * brought its own daily statistics), then the token days and the hour totals, which only logs feed.
 * Every writer writes the tables in this order.
 */
export async function addLogsToRollUps(
  executor: Executor,
  dialect: DialectName,
  rows: readonly NewLogRow[],
  options: { statistics: boolean } = { statistics: true },
): Promise<void> {
  const totals = consumeTotals(rows);
  if (options.statistics) await addToStatistics(executor, dialect, totals.byDay);
  await addCounters(executor, dialect, 'statistics_token_days', TOKEN_KEY_COLUMNS, totals.byToken);
  await addCounters(executor, dialect, 'statistics_hours', ['hour_start'], totals.byHour);
}
