import { describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { insertWithKeptText, keptSizes } from './compiled-texts.js';

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

  it('writes a batch of any size in pieces of kept sizes, every row once and in order', async () => {
    const hours = (first: number, count: number) =>
      Array.from({ length: count }, (_, index) => hour(3_600 * (first + index), first + index));
    // 7 = 4 + 2 + 1, then 6 = 4 + 2 and 5 = 4 + 1: no text of 5, 6 or 7 rows.
    await insert(hours(100, 7));
    await insert(hours(107, 6));
    await insert(hours(113, 5));
    const rows = (await stored()).filter((row) => Number(row.hour_start) >= 3_600 * 100);
    expect(rows.map((row) => ({ ...row, hour_start: Number(row.hour_start) }))).toEqual(hours(100, 18));
    expect(keptSizes(`${dialect}:test-hours`)).toEqual([1, 2, 4]);
  });
});
