import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.js';
import { reportCounts, runImportCli, sourceArgument } from '../../test/import/harness.js';
import { buildOneHubSource } from '../../test/import/sources/one-hub.js';
import { type DatabaseHandle, openDatabase } from '../platform/db/index.js';

let source: TestDatabase;
let target: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  source = await createTestDatabase('sqlite');
  await buildOneHubSource(source, { extraLogs: 5 });
  // An older One Hub (before 2024-08) kept no daily statistics.
  const database = new BetterSqlite3(source.target.sqlitePath);
  database.exec('drop table statistics');
  database.close();
  target = await createTestDatabase('sqlite');
  handle = openDatabase(target.target);
});
afterAll(async () => {
  await handle?.close();
  await source?.drop();
  await target?.drop();
});

it('rolls the daily statistics up from the imported consume logs when the source has none', async () => {
  const run = await runImportCli(['--from', sourceArgument(source), '--batch', '3'], target);
  expect(run.code, run.stderr).toBe(0);
  expect(reportCounts(run.stdout, 'statistics')).toEqual([0, 0, 0]);
  const consumed = await handle.db
    .selectFrom('logs')
    .select([
      (expression) => expression.fn.sum<number>('quota').as('quota'),
      (expression) => expression.fn.countAll<number>().as('requests'),
    ])
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  const rolledUp = await handle.db
    .selectFrom('statistics')
    .select([
      (expression) => expression.fn.sum<number>('quota').as('quota'),
      (expression) => expression.fn.sum<number>('request_count').as('requests'),
    ])
    .executeTakeFirstOrThrow();
  expect(Number(rolledUp.requests)).toBe(Number(consumed.requests));
  expect(Number(rolledUp.quota)).toBe(Number(consumed.quota));
  expect(Number(consumed.requests)).toBeGreaterThan(5);
});
