import { LogType } from '@one-hub/contracts';
import { type Insertable, sql } from 'kysely';
import type { Database, DialectName, Executor, NewLogRow } from '../../platform/db/index.js';
import type { StatisticsTable } from '../../platform/db/schema.js';
import { localDateOf } from './dates.js';

/** What one batch adds to one `statistics` row: a row of its own, keyed and counted alike. */
export type StatisticsDelta = StatisticsTable;

const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;
const KEY_COLUMNS = ['date', 'user_id', 'channel_id', 'model_name'] as const;
// Nine columns a row: well under every database's bound-parameter limit.
const UPSERT_CHUNK = 500;

/**
 * Sums the consume logs of a batch per (local day, user, channel, model). Other log types record
 * money moving, not usage, and are left out, as the reference's roll-up does.
 */
export function consumeTotalsByDay(rows: readonly NewLogRow[]): StatisticsDelta[] {
  const totals = new Map<string, StatisticsDelta>();
  for (const row of rows) {
    if (row.type !== LogType.consume) continue;
    const date = localDateOf(row.created_at);
    const key = `${date}\u0000${row.user_id}\u0000${row.channel_id}\u0000${row.model_name}`;
    let total = totals.get(key);
    if (!total) {
      total = {
        date,
        user_id: row.user_id,
        channel_id: row.channel_id,
        model_name: row.model_name,
        request_count: 0,
        quota: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        request_time: 0,
      };
      totals.set(key, total);
    }
    total.request_count += 1;
    total.quota += row.quota;
    total.prompt_tokens += row.prompt_tokens;
    total.completion_tokens += row.completion_tokens;
    total.request_time += row.request_time;
  }
  // One order for every writer, so concurrent batches lock shared rows in the same sequence.
  return [...totals.values()].sort(compareDeltaKeys);
}

function compareDeltaKeys(left: StatisticsDelta, right: StatisticsDelta): number {
  for (const column of KEY_COLUMNS) {
    if (left[column] < right[column]) return -1;
    if (left[column] > right[column]) return 1;
  }
  return 0;
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
      day = { date: delta.date, request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 };
      if (keyColumn) Object.assign(day, { [keyColumn]: delta[keyColumn] });
      days.set(key, day);
    }
    for (const column of COUNTERS) day[column] += delta[column];
  }
  const columns = keyColumn ? (['date', keyColumn] as const) : (['date'] as const);
  return [...days.values()].sort((left, right) => {
    for (const column of columns) {
      const [a, b] = [left[column] ?? '', right[column] ?? ''];
      if (a !== b) return a < b ? -1 : 1;
    }
    return 0;
  });
}

/**
 * Adds each row's counters to the stored row with the same key, creating it when missing, in
 * single statements: `INSERT … ON CONFLICT DO UPDATE SET c = c + excluded.c` on SQLite and
 * PostgreSQL, `INSERT … ON DUPLICATE KEY UPDATE c = c + VALUES(c)` on MySQL and MariaDB. No read
 * first, so concurrent writers (other nodes) cannot lose each other's counts.
 */
type RollUpTable = 'statistics' | 'statistics_days' | 'statistics_channel_days' | 'statistics_model_days';

async function addCounters<Table extends RollUpTable>(
  executor: Executor,
  dialect: DialectName,
  table: Table,
  keyColumns: readonly string[],
  rows: readonly Insertable<Database[Table]>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
    const insert = executor.insertInto(table as 'statistics').values(rows.slice(start, start + UPSERT_CHUNK) as never);
    const added = Object.fromEntries(
      COUNTERS.map((column) => [
        column,
        dialect === 'mysql'
          ? sql<number>`${sql.ref(column)} + values(${sql.ref(column)})`
          : sql<number>`${sql.ref(`${table}.${column}`)} + excluded.${sql.ref(column)}`,
      ]),
    );
    if (dialect === 'mysql') await insert.onDuplicateKeyUpdate(added).execute();
    else await insert.onConflict((conflict) => conflict.columns(keyColumns as never).doUpdateSet(added)).execute();
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
