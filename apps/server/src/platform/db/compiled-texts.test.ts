import { describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { insertWithKeptText } from './compiled-texts.js';

interface Hour {
  hour_start: number;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}
const COLUMNS = ['hour_start', 'request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;
const hour = (hour_start: number, quota: number): Hour => ({
  hour_start,
  request_count: 1,
  quota,
  prompt_tokens: quota + 1,
  completion_tokens: quota + 2,
  request_time: quota + 3,
});

describe.each(availableDialects)('statements kept by shape on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);

  const insert = (rows: Hour[]) =>
    insertWithKeptText(handle.db, `${dialect}:test-hours`, COLUMNS, rows, (batch) =>
      handle.db.insertInto('statistics_hours').values(batch as Hour[]),
    );
  const stored = () =>
    handle.db.selectFrom('statistics_hours').select(COLUMNS).orderBy('hour_start').execute() as Promise<Hour[]>;

  it('binds each batch its own values on the text the first batch of its size compiled', async () => {
    await insert([hour(3_600, 10), hour(7_200, 20)]);
    // The same shape and size: the kept text, with these rows' values.
    await insert([hour(10_800, 30), hour(14_400, 40)]);
    await insert([hour(18_000, 50)]);
    expect((await stored()).map((row) => ({ ...row }))).toEqual([
      hour(3_600, 10),
      hour(7_200, 20),
      hour(10_800, 30),
      hour(14_400, 40),
      hour(18_000, 50),
    ]);
  });

  it("runs Kysely's own statement for a row that leaves a column to its default", async () => {
    const partial = { ...hour(21_600, 60), request_time: undefined } as unknown as Hour;
    await insert([partial]);
    await insert([hour(25_200, 70)]);
    const rows = await stored();
    expect(rows.find((row) => Number(row.hour_start) === 21_600)).toMatchObject({ quota: 60, request_time: 0 });
    expect(rows.find((row) => Number(row.hour_start) === 25_200)).toMatchObject({ quota: 70, request_time: 73 });
  });
});
