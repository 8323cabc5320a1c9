import { type AnyDb, finishTable, type MigrationContext } from './helpers.js';

/**
 * How far each node's crash journal reached the database through the shared (Redis) ledger: the
 * highest settlement of that journal a written batch carried. A node that restarts after Redis
 * lost its data replays only the settlements beyond it (relay/billing/journal-replay.ts). Every
 * node's batches are recorded in `ledger_flushes` now, so it gets an index to be pruned by age.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    db.schema
      .createTable('journal_marks')
      .addColumn('journal_id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('seq', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull()),
    context,
  ).execute();
  // Batch ids are kept 30 days and pruned by age (platform/journal/batches.ts).
  await db.schema.createIndex('idx_ledger_flushes_created').on('ledger_flushes').column('created_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('idx_ledger_flushes_created').on('ledger_flushes').ifExists().execute();
  await db.schema.dropTable('journal_marks').ifExists().execute();
}
