import { LogType } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { migrateToLatest, type NewLogRow } from '../../platform/db/index.js';

function localTime(days: number, hours: number, minutes = 0): number {
  return Math.floor(new Date(2023, 11, 30 + days, hours, minutes).getTime() / 1000);
}

function log(fields: Partial<NewLogRow> & { created_at: number }): NewLogRow {
  return {
    user_id: 1,
    username: 'old',
    type: LogType.consume,
    content: '',
    quota: 5,
    source_ip: '',
    token_name: '',
    model_name: 'gpt-old',
    prompt_tokens: 2,
    completion_tokens: 3,
    channel_id: 4,
    request_time: 50,
    is_stream: false,
    metadata: '{}',
    token_id: 0,
    request_id: '',
    ...fields,
  };
}

describe.each(availableDialects)('migration 0004 on an existing database (%s)', (dialect) => {
  // The schema before statistics existed, the way an older release left it.
  const handle = useMigratedDatabase(dialect, { upTo: '0003_ledger_flushes' });

  it('rolls up the consume logs already stored, per local day, and only those', async () => {
    const rows: NewLogRow[] = [
      // New Year's Eve just before midnight, and a year-end gap of several empty days after it.
      log({ created_at: localTime(1, 23, 59), quota: 7 }),
      log({ created_at: localTime(1, 23, 59), quota: 8, prompt_tokens: 10 }),
      log({ created_at: localTime(2, 0, 0), quota: 9 }),
      log({ created_at: localTime(2, 18, 0), quota: 1, user_id: 2 }),
      log({ created_at: localTime(2, 18, 0), quota: 1, model_name: 'other' }),
      log({ created_at: localTime(9, 12, 0), quota: 100, channel_id: 5 }),
      log({ created_at: localTime(2, 12, 0), quota: 999, type: LogType.topup }),
      log({ created_at: localTime(2, 12, 0), quota: 999, type: LogType.system }),
    ];
    await handle.db.insertInto('logs').values(rows).execute();

    expect(await migrateToLatest(handle)).toContain('0004_statistics_redemptions');

    const stored = await handle.db
      .selectFrom('statistics')
      .selectAll()
      .orderBy('date')
      .orderBy('user_id')
      .orderBy('model_name')
      .execute();
    expect(
      stored.map((row) => [
        row.date,
        Number(row.user_id),
        Number(row.channel_id),
        row.model_name,
        Number(row.request_count),
        Number(row.quota),
        Number(row.prompt_tokens),
        Number(row.completion_tokens),
        Number(row.request_time),
      ]),
    ).toEqual([
      ['2023-12-31', 1, 4, 'gpt-old', 2, 15, 12, 6, 100],
      ['2024-01-01', 1, 4, 'gpt-old', 1, 9, 2, 3, 50],
      ['2024-01-01', 1, 4, 'other', 1, 1, 2, 3, 50],
      ['2024-01-01', 2, 4, 'gpt-old', 1, 1, 2, 3, 50],
      ['2024-01-08', 1, 5, 'gpt-old', 1, 100, 2, 3, 50],
    ]);
  });

  it('creates an empty redemptions table and is not applied twice', async () => {
    expect(await handle.db.selectFrom('redemptions').selectAll().execute()).toEqual([]);
    expect(await migrateToLatest(handle)).toEqual([]);
  });
});
