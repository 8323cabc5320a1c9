import { type AnyDb, finishTable, type MigrationContext } from './helpers.js';

/**
 * One row per applied batch of settled quota from the shared (Redis) ledger, written in the same
 * transaction as the batch, so a batch is applied once even if the node applying it dies midway.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    db.schema
      .createTable('ledger_flushes')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('created_at', 'bigint', (column) => column.notNull()),
    context,
  ).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('ledger_flushes').ifExists().execute();
}
