import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.js';
import { runImportCli, sourceArgument } from '../../test/import/harness.js';
import { buildOneHubSource } from '../../test/import/sources/one-hub.js';
import { type DatabaseHandle, openDatabase } from '../platform/db/index.js';

let source: TestDatabase;
let target: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  source = await createTestDatabase('sqlite');
  await buildOneHubSource(source, { extraLogs: 5 });
  target = await createTestDatabase('sqlite');
  handle = openDatabase(target.target);
});
afterAll(async () => {
  await handle?.close();
  await source?.drop();
  await target?.drop();
});

/** Quota and requests per group of the imported consume logs, as sorted text. */
async function logSums(group: 'token' | 'hour'): Promise<string[]> {
  const key =
    group === 'token' ? sql`user_id || ':' || token_name || ':' || model_name` : sql`created_at - created_at % 3600`;
  const { rows } = await sql<{ key: string | number; quota: number; requests: number }>`select ${key} as key,
    sum(quota) as quota, count(*) as requests from logs where type = 2 group by ${key}`.execute(handle.db);
  return rows.map((row) => `${row.key} ${Number(row.quota)} ${Number(row.requests)}`).sort();
}

it('rolls the token days and hour totals up from the imported logs, though the source brought its own statistics', async () => {
  const run = await runImportCli(['--from', sourceArgument(source), '--batch', '3'], target);
  expect(run.code, run.stderr).toBe(0);
  const tokens = await sql<{ key: string; quota: number; requests: number }>`select
      user_id || ':' || token_name || ':' || model_name as key, sum(quota) as quota, sum(request_count) as requests
    from statistics_token_days group by user_id, token_name, model_name`.execute(handle.db);
  const hours = await handle.db.selectFrom('statistics_hours').selectAll().execute();
  const expectedTokens = await logSums('token');
  expect(expectedTokens.length).toBeGreaterThan(1);
  expect(tokens.rows.map((row) => `${row.key} ${Number(row.quota)} ${Number(row.requests)}`).sort()).toEqual(
    expectedTokens,
  );
  expect(hours.map((row) => `${row.hour_start} ${Number(row.quota)} ${Number(row.request_count)}`).sort()).toEqual(
    await logSums('hour'),
  );
});
