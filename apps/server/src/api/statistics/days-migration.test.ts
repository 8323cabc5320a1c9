import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { migrateToLatest } from '../../platform/db/index.js';

function statistic(date: string, user_id: number, model_name: string, quota: number) {
  return {
    date,
    user_id,
    channel_id: 1,
    model_name,
    request_count: 2,
    quota,
    prompt_tokens: 10,
    completion_tokens: 20,
    request_time: 300,
  };
}

describe.each(availableDialects)('migration 0012 on an existing database (%s)', (dialect) => {
  // The schema before migration 0012, the way the previous release left it.
  const handle = useMigratedDatabase(dialect, { upTo: '0011_password_change' });

  beforeAll(async () => {
    await handle.db
      .insertInto('statistics')
      .values([
        statistic('2024-05-01', 1, 'a', 100),
        statistic('2024-05-01', 2, 'b', 50),
        statistic('2024-05-03', 1, 'a', 7),
      ])
      .execute();
    await migrateToLatest(handle);
  });

  it('fills the per-day totals from the roll-up already stored', async () => {
    const rows = await handle.db.selectFrom('statistics_days').selectAll().orderBy('date').execute();
    expect(
      rows.map((row) => ({
        date: row.date,
        request_count: Number(row.request_count),
        quota: Number(row.quota),
        prompt_tokens: Number(row.prompt_tokens),
        completion_tokens: Number(row.completion_tokens),
        request_time: Number(row.request_time),
      })),
    ).toEqual([
      { date: '2024-05-01', request_count: 4, quota: 150, prompt_tokens: 20, completion_tokens: 40, request_time: 600 },
      { date: '2024-05-03', request_count: 2, quota: 7, prompt_tokens: 10, completion_tokens: 20, request_time: 300 },
    ]);
  });
});
