import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { runImportCli, sourceArgument } from '../../test/import/harness.js';
import { sqliteImportPair } from '../../test/import/sqlite-pair.js';

const pair = sqliteImportPair(5);

/** Quota and requests per group of the imported consume logs, as sorted text. */
async function logSums(group: 'token' | 'hour'): Promise<string[]> {
  const key =
    group === 'token' ? sql`user_id || ':' || token_name || ':' || model_name` : sql`created_at - created_at % 3600`;
  const { rows } = await sql<{ key: string | number; quota: number; requests: number }>`select ${key} as key,
    sum(quota) as quota, count(*) as requests from logs where type = 2 group by ${key}`.execute(pair.handle.db);
  return rows.map((row) => `${row.key} ${Number(row.quota)} ${Number(row.requests)}`).sort();
}

it('rolls the token days and hour totals up from the imported logs, though the source brought its own statistics', async () => {
  const run = await runImportCli(['--from', sourceArgument(pair.source), '--batch', '3'], pair.target);
  expect(run.code, run.stderr).toBe(0);
  const tokens = await sql<{ key: string; quota: number; requests: number }>`select
      user_id || ':' || token_name || ':' || model_name as key, sum(quota) as quota, sum(request_count) as requests
    from statistics_token_days group by user_id, token_name, model_name`.execute(pair.handle.db);
  const hours = await pair.handle.db.selectFrom('statistics_hours').selectAll().execute();
  const expectedTokens = await logSums('token');
  expect(expectedTokens.length).toBeGreaterThan(1);
  expect(tokens.rows.map((row) => `${row.key} ${Number(row.quota)} ${Number(row.requests)}`).sort()).toEqual(
    expectedTokens,
  );
  expect(hours.map((row) => `${row.hour_start} ${Number(row.quota)} ${Number(row.request_count)}`).sort()).toEqual(
    await logSums('hour'),
  );
});
