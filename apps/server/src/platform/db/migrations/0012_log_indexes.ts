import { sql } from 'kysely';
import { type AnyDb, finishTable, type MigrationContext } from './helpers.js';

/**
 * Indexes that match what the console asks of a large `logs` table: each filter it offers (and
 * each column it sorts by), followed by the list's order (newest first: `created_at`, then `id`),
 * so a filtered or sorted page is a short walk down one index and never a sort. `id` is written out because only SQLite and InnoDB
 * append the primary key to every index by themselves. `request_id` is looked up exactly and
 * matches a row or two, so it needs no order. On `statistics`, the model and channel filters of
 * the log statistics, which read the daily roll-up, covering the quota they sum. And
 * `statistics_days`, the roll-up summed per day, so the unfiltered statistics read one row a day
 * instead of every (user, channel, model) of it; filled here from `statistics`.
 *
 * Building these on a table of tens of millions of rows takes minutes; PostgreSQL and SQLite hold
 * writes to the table meanwhile (MySQL builds them online).
 */
const LOG_INDEXES: Record<string, string[]> = {
  idx_logs_created_at: ['created_at', 'id'],
  idx_logs_user_time: ['user_id', 'created_at', 'id'],
  idx_logs_username_time: ['username', 'created_at', 'id'],
  idx_logs_model_time: ['model_name', 'created_at', 'id'],
  idx_logs_token_time: ['token_name', 'created_at', 'id'],
  idx_logs_channel_time: ['channel_id', 'created_at', 'id'],
  // With quota: the statistics sum the partial days at a range's edges from this index alone.
  idx_logs_type_time: ['type', 'created_at', 'id', 'quota'],
  idx_logs_source_ip_time: ['source_ip', 'created_at', 'id'],
  // Not a filter: the console's "most expensive first" sort.
  idx_logs_quota_time: ['quota', 'created_at', 'id'],
  idx_logs_request_id: ['request_id'],
};

/** Migration 0001's indexes, each replaced by one above. */
const REPLACED_LOG_INDEXES: Record<string, string[]> = {
  idx_logs_created_at_type: ['created_at', 'type'],
  idx_logs_user_id: ['user_id'],
  idx_logs_model_username: ['model_name', 'username'],
  idx_logs_token_name: ['token_name'],
  idx_logs_channel_id: ['channel_id'],
};

const STATISTICS_INDEXES: Record<string, string[]> = {
  idx_statistics_model_date: ['model_name', 'date', 'quota'],
  idx_statistics_channel_date: ['channel_id', 'date', 'quota'],
};

async function dropIndex(db: AnyDb, context: MigrationContext, name: string, table: string): Promise<void> {
  // Only MySQL names the table of an index it drops.
  const drop = db.schema.dropIndex(name);
  await (context.dialect === 'mysql' ? drop.on(table) : drop).execute();
}

async function createIndexes(db: AnyDb, table: string, indexes: Record<string, string[]>): Promise<void> {
  for (const [name, columns] of Object.entries(indexes)) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}

export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  // The new ones first, so the old ones are never the only index a query had.
  await createIndexes(db, 'logs', LOG_INDEXES);
  for (const name of Object.keys(REPLACED_LOG_INDEXES)) await dropIndex(db, context, name, 'logs');
  await createIndexes(db, 'statistics', STATISTICS_INDEXES);
  await createStatisticsDays(db, context);
}

const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'];

async function createStatisticsDays(db: AnyDb, context: MigrationContext): Promise<void> {
  let table = db.schema
    .createTable('statistics_days')
    .addColumn('date', 'varchar(10)', (column) => column.primaryKey());
  for (const counter of COUNTERS) {
    table = table.addColumn(counter, 'bigint', (column) => column.notNull().defaultTo(0));
  }
  await finishTable(table, context).execute();
  const sums = COUNTERS.map((counter) => sql`sum(${sql.ref(counter)})`.as(counter));
  await db
    .insertInto('statistics_days')
    .columns(['date', ...COUNTERS])
    .expression(
      db
        .selectFrom('statistics')
        .select(['date', ...sums])
        .groupBy('date'),
    )
    .execute();
}

export async function down(db: AnyDb, context: MigrationContext): Promise<void> {
  await db.schema.dropTable('statistics_days').ifExists().execute();
  for (const name of Object.keys(STATISTICS_INDEXES)) await dropIndex(db, context, name, 'statistics');
  await createIndexes(db, 'logs', REPLACED_LOG_INDEXES);
  for (const name of Object.keys(LOG_INDEXES)) await dropIndex(db, context, name, 'logs');
}
