import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { DatabaseHandle } from '../connect.js';
import * as accounts from './0001_accounts.js';
import * as relay from './0002_relay.js';
import * as ledgerFlushes from './0003_ledger_flushes.js';
import * as statisticsRedemptions from './0004_statistics_redemptions.js';
import * as accountBindings from './0005_account_bindings.js';
import * as modelMetadata from './0006_model_metadata.js';
import * as sessionGeneration from './0007_session_generation.js';
import * as accountTrust from './0008_account_trust.js';
import * as inviteCounters from './0009_invite_counters.js';
import * as importProgress from './0010_import_progress.js';
import * as passwordChange from './0011_password_change.js';
import * as logIndexes from './0012_log_indexes.js';
import * as payments from './0013_payments.js';
import * as logUserIndexes from './0014_log_user_indexes.js';
import * as statisticsKeyDays from './0015_statistics_channel_days.js';
import * as tasks from './0016_tasks.js';
import * as webauthnCredentials from './0017_webauthn_credentials.js';
import * as statisticsMonths from './0018_statistics_months.js';
import * as journalMarks from './0019_journal_marks.js';
import * as budgets from './0020_budgets.js';
import * as plans from './0021_plans.js';
import * as routingStrategy from './0022_routing_strategy.js';
import * as taskBudgetUse from './0023_task_budget_use.js';
import * as routeFallbacks from './0024_route_fallbacks.js';
import * as channelRoutingStrategy from './0025_channel_routing_strategy.js';
import * as auditLogs from './0026_audit_logs.js';
import * as logPairIndexes from './0027_log_pair_indexes.js';
import * as statisticsTokenDays from './0028_statistics_token_days.js';
import type { AnyDb, MigrationContext } from './helpers.js';

interface VersionedMigration {
  up(db: AnyDb, context: MigrationContext): Promise<void>;
  down?(db: AnyDb, context: MigrationContext): Promise<void>;
}

/** Ordered list of migrations; names sort in the order they must run. Never edit one that shipped. */
const migrations: Record<string, VersionedMigration> = {
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
  '0012_log_indexes': logIndexes,
  '0013_payments': payments,
  '0014_log_user_indexes': logUserIndexes,
  '0015_statistics_channel_days': statisticsKeyDays,
  '0016_tasks': tasks,
  '0017_webauthn_credentials': webauthnCredentials,
  '0018_statistics_months': statisticsMonths,
  '0019_journal_marks': journalMarks,
  '0020_budgets': budgets,
  '0021_plans': plans,
  '0022_routing_strategy': routingStrategy,
  '0023_task_budget_use': taskBudgetUse,
  '0024_route_fallbacks': routeFallbacks,
  '0025_channel_routing_strategy': channelRoutingStrategy,
  '0026_audit_logs': auditLogs,
  '0027_log_pair_indexes': logPairIndexes,
  '0028_statistics_token_days': statisticsTokenDays,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly context: MigrationContext) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const entries = Object.entries(migrations).map(([name, migration]): [string, Migration] => {
      const down = migration.down;
      return [
        name,
        {
          up: (db) => migration.up(db, this.context),
          ...(down ? { down: (db: AnyDb) => down(db, this.context) } : {}),
        },
      ];
    });
    return Object.fromEntries(entries);
  }
}

function migratorFor(handle: DatabaseHandle): Migrator {
  return new Migrator({
    db: handle.db,
    provider: new StaticProvider({ dialect: handle.dialect }),
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
}

/**
 * Runs the migrations up to and including `name` only: upgrade tests use it to leave a database
 * the way an older release did before migrating the rest.
 */
export async function migrateUpTo(handle: DatabaseHandle, name: keyof typeof migrations): Promise<void> {
  const { error } = await migratorFor(handle).migrateTo(name);
  if (error) throw error;
}

/** Brings the schema up to date; safe to call on every start and from several nodes at once. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const { error, results } = await migratorFor(handle).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
