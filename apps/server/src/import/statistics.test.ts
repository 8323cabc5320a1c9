import BetterSqlite3 from 'better-sqlite3';
import { expect, it } from 'vitest';
import { reportCounts, runImportCli, sourceArgument } from '../../test/import/harness.js';
import { sqliteImportPair } from '../../test/import/sqlite-pair.js';

const pair = sqliteImportPair(5, (source) => {
  // An older One Hub (before 2024-08) kept no daily statistics.
  const database = new BetterSqlite3(source.target.sqlitePath);
  database.exec('drop table statistics');
  database.close();
});

it('rolls the daily statistics up from the imported consume logs when the source has none', async () => {
  const run = await runImportCli(['--from', sourceArgument(pair.source), '--batch', '3'], pair.target);
  expect(run.code, run.stderr).toBe(0);
  expect(reportCounts(run.stdout, 'statistics')).toEqual([0, 0, 0]);
  const consumed = await pair.handle.db
    .selectFrom('logs')
    .select([
      (expression) => expression.fn.sum<number>('quota').as('quota'),
      (expression) => expression.fn.countAll<number>().as('requests'),
    ])
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  const rolledUp = await pair.handle.db
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
