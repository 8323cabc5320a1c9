import { LogType } from '@one-hub/contracts';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, DialectName, Executor, NewLogRow } from '../../platform/db/index.js';
import { localDateOf } from './dates.js';

/** What one batch adds to one `statistics` row. */
export interface StatisticsDelta {
  date: string;
  user_id: number;
  channel_id: number;
  model_name: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

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

function addedFromInsert(expression: ExpressionBuilder<Database, 'statistics'>, column: (typeof COUNTERS)[number]) {
  return sql<number>`${expression.ref(`statistics.${column}`)} + excluded.${sql.ref(column)}`;
}

/**
 * Adds each delta to its row, creating the row when it is missing, in single statements:
 * `INSERT … ON CONFLICT DO UPDATE SET c = c + excluded.c` on SQLite and PostgreSQL,
 * `INSERT … ON DUPLICATE KEY UPDATE c = c + VALUES(c)` on MySQL and MariaDB. No read first, so
 * concurrent writers (other nodes) cannot lose each other's counts.
 */
export async function addToStatistics(
  executor: Executor,
  dialect: DialectName,
  deltas: readonly StatisticsDelta[],
): Promise<void> {
  for (let start = 0; start < deltas.length; start += UPSERT_CHUNK) {
    const insert = executor.insertInto('statistics').values(deltas.slice(start, start + UPSERT_CHUNK));
    if (dialect === 'mysql') {
      await insert
        .onDuplicateKeyUpdate(
          Object.fromEntries(
            COUNTERS.map((column) => [column, sql<number>`${sql.ref(column)} + values(${sql.ref(column)})`]),
          ),
        )
        .execute();
    } else {
      await insert
        .onConflict((conflict) =>
          conflict
            .columns([...KEY_COLUMNS])
            .doUpdateSet((expression) =>
              Object.fromEntries(COUNTERS.map((column) => [column, addedFromInsert(expression, column)])),
            ),
        )
        .execute();
    }
  }
}
