import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/**
 * Model metadata the administrators maintain: extra model owners (makers) beside the built-in
 * ones, and descriptive information about models. Built-in owners live in code, not here.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    db.schema
      .createTable('model_owned_by')
      // Chosen, not generated: a price's `channel_type` names its owner by this id, and ids up to
      // 1000 belong to the built-in owners.
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      // Text columns take no default on MySQL; every insert writes all of them.
      .addColumn('icon', 'text', (column) => column.notNull()),
    context,
  ).execute();

  await finishTable(
    createTableWithId(db, context, 'model_info')
      .addColumn('model', 'varchar(100)', (column) => column.notNull().unique())
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      .addColumn('description', 'text', (column) => column.notNull())
      .addColumn('context_length', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('max_tokens', 'integer', (column) => column.notNull().defaultTo(0))
      // JSON arrays of strings, kept as text as the reference API hands them out.
      .addColumn('input_modalities', 'text', (column) => column.notNull())
      .addColumn('output_modalities', 'text', (column) => column.notNull())
      .addColumn('tags', 'text', (column) => column.notNull())
      .addColumn('support_url', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull()),
    context,
  ).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['model_info', 'model_owned_by']) await db.schema.dropTable(table).ifExists().execute();
}
