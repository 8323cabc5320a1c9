import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/**
 * The audit log (issue 36): one row per change made through the management API, written in the same
 * transaction as the change, so a change that failed leaves no row and a row always names a change that
 * happened. `changes` is JSON: `{field: {before, after}}` of the changed fields only; a secret field is
 * `{secret: true}` with neither value.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    createTableWithId(db, context, 'audit_logs', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('actor_id', 'integer', (column) => column.notNull())
      .addColumn('actor_name', 'varchar(64)', (column) => column.notNull())
      .addColumn('actor_role', 'integer', (column) => column.notNull())
      .addColumn('resource', 'varchar(32)', (column) => column.notNull())
      .addColumn('action', 'varchar(32)', (column) => column.notNull())
      .addColumn('target_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('target_name', 'varchar(191)', (column) => column.notNull())
      .addColumn('changes', 'text', (column) => column.notNull())
      .addColumn('ip', 'varchar(64)', (column) => column.notNull())
      .addColumn('request_id', 'varchar(64)', (column) => column.notNull()),
    context,
  ).execute();
  await db.schema.createIndex('idx_audit_logs_created').on('audit_logs').columns(['created_at']).execute();
  await db.schema
    .createIndex('idx_audit_logs_actor_created')
    .on('audit_logs')
    .columns(['actor_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('idx_audit_logs_resource_target')
    .on('audit_logs')
    .columns(['resource', 'target_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('audit_logs').ifExists().execute();
}
