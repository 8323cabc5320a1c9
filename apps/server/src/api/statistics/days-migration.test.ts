import { type Migration, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../platform/db/index.js';
import * as accounts from '../../platform/db/migrations/0001_accounts.js';
import * as relay from '../../platform/db/migrations/0002_relay.js';
import * as ledgerFlushes from '../../platform/db/migrations/0003_ledger_flushes.js';
import * as statisticsRedemptions from '../../platform/db/migrations/0004_statistics_redemptions.js';
import * as accountBindings from '../../platform/db/migrations/0005_account_bindings.js';
import * as modelMetadata from '../../platform/db/migrations/0006_model_metadata.js';
import * as sessionGeneration from '../../platform/db/migrations/0007_session_generation.js';
import * as accountTrust from '../../platform/db/migrations/0008_account_trust.js';
import * as inviteCounters from '../../platform/db/migrations/0009_invite_counters.js';
import * as importProgress from '../../platform/db/migrations/0010_import_progress.js';
import * as passwordChange from '../../platform/db/migrations/0011_password_change.js';
import type { AnyDb, MigrationContext } from '../../platform/db/migrations/helpers.js';

type Step = { up(db: AnyDb, context: MigrationContext): Promise<void> };

/** Brings a database to the schema before migration 0012, the way the previous release left it. */
async function migrateToBeforeDays(handle: DatabaseHandle): Promise<void> {
  const context = { dialect: handle.dialect };
  const older: Record<string, Step> = {
    '0001_accounts': accounts,
    '0002_relay': relay,
    '0003_ledger_flushes': ledgerFlushes,
    '0004_statistics_redemptions': statisticsRedemptions,
    '0005_account_bindings': accountBindings,
    '0006_model_metadata': modelMetadata,
    '0007_session_generation': sessionGeneration,
    '0008_account_trust': accountTrust,
    '0009_invite_counters': inviteCounters,
    '0010_import_progress': importProgress,
    '0011_password_change': passwordChange,
  };
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(older).map(([name, migration]) => [name, { up: (db) => migration.up(db, context) }]),
  );
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

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
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(dialect);
    handle = openDatabase(testDatabase.target);
    await migrateToBeforeDays(handle);
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
  afterAll(async () => {
    await handle?.close();
    await testDatabase?.drop();
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
