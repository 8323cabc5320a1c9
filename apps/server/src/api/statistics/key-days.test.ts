import { LogType } from '@one-hub/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, useMigratedDatabase } from '../../../test/databases.js';
import { type DatabaseHandle, migrateToLatest, type NewLogRow, openDatabase } from '../../platform/db/index.js';
import { migrateUpTo } from '../../platform/db/migrations/index.js';
import { LogWriter } from '../log/writer.js';
import { localDateOf } from './dates.js';
import { compareDatedUsage, type DatedUsage, StatisticsRepository } from './repo.js';

const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;
type Key = 'channel_id' | 'model_name';

function log(index: number): NewLogRow {
  return {
    user_id: 1 + (index % 5),
    username: `u${index % 5}`,
    // Every seventh row is a top-up: money moving, not usage, so no roll-up counts it.
    type: index % 7 === 0 ? LogType.topup : LogType.consume,
    content: '',
    quota: 3 + (index % 11),
    source_ip: '',
    token_name: 'key',
    prompt_tokens: index % 13,
    completion_tokens: index % 17,
    channel_id: 1 + (index % 4),
    request_time: 50 + (index % 9),
    is_stream: false,
    metadata: '{}',
    token_id: 0,
    request_id: '',
    model_name: `model-${index % 3}`,
    // Spread over four local days, crossing midnight.
    created_at: Math.floor(new Date(2024, 4, 1, 0, 0, 0).getTime() / 1000) + index * 997,
  };
}

/** Usage per day and key as the analytics read it before migration 0015: summed from `statistics`. */
async function oldUsageByDay(handle: DatabaseHandle, key: Key): Promise<DatedUsage[]> {
  const rows = await handle.db
    .selectFrom('statistics')
    .select(['date', sql<string | number>`${sql.ref(key)}`.as('key')])
    .select(COUNTERS.map((counter) => sql<string | number>`sum(${sql.ref(counter)})`.as(counter)))
    .groupBy(['date', key])
    .execute();
  return rows.map((row) => ({ ...row, key: String(row.key), ...numbers(row) }) as DatedUsage).sort(compareDatedUsage);
}

function numbers(row: Record<string, unknown>): Record<(typeof COUNTERS)[number], number> {
  return Object.fromEntries(COUNTERS.map((counter) => [counter, Number(row[counter])])) as never;
}

/** The consume logs stored, summed in code per day and key: what every roll-up must equal. */
async function logSums(handle: DatabaseHandle, key: Key): Promise<DatedUsage[]> {
  const logs = await handle.db.selectFrom('logs').selectAll().where('type', '=', LogType.consume).execute();
  const sums = new Map<string, DatedUsage>();
  for (const row of logs) {
    const date = localDateOf(Number(row.created_at));
    const id = `${date} ${row[key]}`;
    const added = { ...row, request_count: 1 };
    const zero = { request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 };
    const sum = sums.get(id) ?? { date, key: String(row[key]), ...zero };
    for (const counter of COUNTERS) sum[counter] += Number(added[counter]);
    sums.set(id, sum);
  }
  return [...sums.values()].sort(compareDatedUsage);
}

async function keyDays(handle: DatabaseHandle, key: Key): Promise<DatedUsage[]> {
  const table = key === 'channel_id' ? 'statistics_channel_days' : 'statistics_model_days';
  const rows = await handle.db
    .selectFrom(table as 'statistics_channel_days')
    .selectAll()
    .execute();
  return rows
    .map((row) => ({ date: row.date, key: String((row as Record<string, unknown>)[key]), ...numbers(row) }))
    .sort(compareDatedUsage);
}

describe.each(availableDialects)('per-day-and-key roll-ups (%s)', (dialect) => {
  const handle = useMigratedDatabase(dialect);

  beforeAll(async () => {
    // Two writers (nodes) in small batches, so many batches add to the same rows.
    const writers = [0, 1].map(() => new LogWriter(handle, { batchSize: 23, flushIntervalMs: 60_000 }));
    for (let index = 0; index < 400; index++) writers[index % 2]?.push(log(index));
    await Promise.all(writers.map((writer) => writer.close()));
  });

  it.each(['channel_id', 'model_name'] as const)(
    'equal the sums of the logs by %s after batched writes',
    async (key) => {
      const expected = await logSums(handle, key);
      expect(expected.length).toBeGreaterThan(8);
      expect(await keyDays(handle, key)).toEqual(expected);
    },
  );

  it('answer the analytics as the old query over `statistics` did', async () => {
    const repo = new StatisticsRepository(handle);
    const range = { fromDate: '2024-05-02', toDate: '2024-05-03' };
    const inRange = (rows: DatedUsage[]) =>
      rows.filter((row) => row.date >= range.fromDate && row.date <= range.toDate);
    for (const [by, key] of [
      ['channel', 'channel_id'],
      ['model', 'model_name'],
    ] as const) {
      const answer = (await repo.usageByDay(range, by)).map((row) => ({ ...row, key: String(row.key) }));
      const old = inRange(await oldUsageByDay(handle, key));
      expect(old.length).toBeGreaterThan(0);
      expect(answer.sort(compareDatedUsage)).toEqual(old);
    }
  });

  it('fills both from the `statistics` already stored when migrating an older database', async () => {
    const older = await createTestDatabase(dialect);
    const olderHandle = openDatabase(older.target);
    try {
      await migrateUpTo(olderHandle, '0014_log_user_indexes');
      const rows = await handle.db.selectFrom('statistics').selectAll().execute();
      await olderHandle.db
        .insertInto('statistics')
        .values(rows.map((row) => ({ ...row, ...numbers(row) })))
        .execute();
      await migrateToLatest(olderHandle);
      for (const key of ['channel_id', 'model_name'] as const) {
        expect(await keyDays(olderHandle, key)).toEqual(await logSums(handle, key));
      }
    } finally {
      await olderHandle.close();
      await older.drop();
    }
  });
});
