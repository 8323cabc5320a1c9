import type { LogView } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { csvRecords } from '../../../test/csv-parse.js';
import { availableDialects } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import { LogQueryRepository } from './query-repo.js';
import { LOG_EXPORT_PAGE_SIZE } from './service.js';

/** Rows in the table: fifty full pages and a half one. */
const ROWS = 50 * LOG_EXPORT_PAGE_SIZE + LOG_EXPORT_PAGE_SIZE / 2;
const base = 1_700_000_000;

/** Issue 36 item 2: an export of any length reads the table a bounded page at a time, by keyset. */
describe.each(availableDialects)('log export at scale on %s', (dialect) => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    // Three rows a second, so pages end in the middle of a second and the id must break the tie.
    const rows = Array.from({ length: ROWS }, (_, index) =>
      logRow({ created_at: base + Math.floor(index / 3), content: `row-${index}`, quota: index, username: 'many' }),
    );
    for (let start = 0; start < rows.length; start += 1_000) {
      await t.database.db
        .insertInto('logs')
        .values(rows.slice(start, start + 1_000))
        .execute();
    }
  }, 120_000);
  afterAll(() => t?.close());

  it('streams every row once, in the list order, one bounded keyset page per query', async () => {
    const pageQuery = vi.spyOn(LogQueryRepository.prototype, 'pageBefore');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/log/export?format=jsonl',
      headers: { cookie: root },
    });
    const { calls, results } = pageQuery.mock;
    pageQuery.mockRestore();
    expect(response.statusCode).toBe(200);
    const logs: LogView[] = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(logs).toHaveLength(ROWS);
    expect(new Set(logs.map((log) => log.id)).size).toBe(ROWS);
    expect(logs[0]?.content).toBe(`row-${ROWS - 1}`);
    expect(logs.at(-1)?.content).toBe('row-0');
    for (let index = 1; index < logs.length; index += 1) {
      const [newer, older] = [logs[index - 1], logs[index]] as [LogView, LogView];
      const ordered =
        newer.created_at > older.created_at || (newer.created_at === older.created_at && newer.id > older.id);
      if (!ordered) expect.fail(`row ${index} is out of order`);
    }

    // 51 queries for 50.5 pages: each read at most a page, and each after the last row of the one before.
    expect(calls).toHaveLength(Math.ceil(ROWS / LOG_EXPORT_PAGE_SIZE));
    const pageSizes = await Promise.all(results.map(async (result) => (await result.value).length));
    expect(Math.max(...pageSizes)).toBe(LOG_EXPORT_PAGE_SIZE);
    expect(pageSizes.at(-1)).toBe(LOG_EXPORT_PAGE_SIZE / 2);
    expect(calls[0]?.[1]).toBeUndefined();
    const secondCursor = calls[1]?.[1];
    expect(secondCursor).toEqual({ createdAt: logs[999]?.created_at, id: logs[999]?.id });
    expect(calls.every((call) => call[2] === LOG_EXPORT_PAGE_SIZE)).toBe(true);
  }, 120_000);

  it('gives under a filter the rows the list gives page after page, in its order', async () => {
    const filter = `end_timestamp=${base + 99}`;
    const listed: string[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/log/?${filter}&size=100&page=${page}`,
        headers: { cookie: root },
      });
      listed.push(...(response.json().data.data as LogView[]).map((log) => log.content));
    }
    // Three rows a second for the first 100 seconds.
    expect(listed).toEqual(Array.from({ length: 300 }, (_, index) => `row-${299 - index}`));
    const exported = await t.app.inject({ method: 'GET', url: `/api/log/export?${filter}`, headers: { cookie: root } });
    expect(csvRecords(exported.body).map((record) => record.content)).toEqual(listed);
  });
});
