import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/**
 * What `npm run import` records in the target, so an interrupted import continues where it
 * stopped and remaps ids the same way: one row per import run (per source), one progress mark
 * per step (last source id written, written in the same transaction as the rows), the map from
 * source to target ids of users and channels, and the rows skipped with their reasons.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    createTableWithId(db, context, 'import_runs')
      .addColumn('source', 'varchar(255)', (column) => column.notNull().unique())
      .addColumn('product', 'varchar(32)', (column) => column.notNull())
      .addColumn('mode', 'varchar(16)', (column) => column.notNull())
      .addColumn('started_at', 'bigint', (column) => column.notNull())
      .addColumn('finished_at', 'bigint', (column) => column.notNull().defaultTo(0)),
    context,
  ).execute();

  await finishTable(
    db.schema
      .createTable('import_progress')
      .addColumn('run_id', 'integer', (column) => column.notNull())
      .addColumn('step', 'varchar(32)', (column) => column.notNull())
      .addColumn('last_id', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('done', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('read_count', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('written_count', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('skipped_count', 'bigint', (column) => column.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('import_progress_pk', ['run_id', 'step']),
    context,
  ).execute();

  await finishTable(
    db.schema
      .createTable('import_id_map')
      .addColumn('run_id', 'integer', (column) => column.notNull())
      .addColumn('entity', 'varchar(16)', (column) => column.notNull())
      .addColumn('source_id', 'bigint', (column) => column.notNull())
      // 0: the source row was skipped on purpose (its dependants are skipped too).
      .addColumn('target_id', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('import_id_map_pk', ['run_id', 'entity', 'source_id']),
    context,
  ).execute();

  await finishTable(
    createTableWithId(db, context, 'import_skips')
      .addColumn('run_id', 'integer', (column) => column.notNull())
      .addColumn('step', 'varchar(32)', (column) => column.notNull())
      .addColumn('row_ref', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('reason', 'varchar(500)', (column) => column.notNull())
      .addColumn('row_count', 'integer', (column) => column.notNull().defaultTo(1)),
    context,
  ).execute();
  await db.schema.createIndex('idx_import_skips_run').on('import_skips').columns(['run_id', 'step']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['import_skips', 'import_id_map', 'import_progress', 'import_runs']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
