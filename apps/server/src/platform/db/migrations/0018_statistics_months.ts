import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/**
 * Monthly invoices (UserInvoiceMonth, reference §3.1): `statistics_months` holds each user's
 * usage per model for a month (keyed by the month's first day, YYYY-MM-01), built from the daily
 * `statistics` once the month is over; `statistics_month_generated_histories` records which months
 * were built, so the daily job builds each only once.
 */
const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'];

export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  let months = db.schema
    .createTable('statistics_months')
    .addColumn('date', 'varchar(10)', (column) => column.notNull())
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('model_name', 'varchar(255)', (column) => column.notNull());
  for (const counter of COUNTERS)
    months = months.addColumn(counter, 'bigint', (column) => column.notNull().defaultTo(0));
  await finishTable(
    months.addPrimaryKeyConstraint('statistics_months_pk', ['date', 'user_id', 'model_name']),
    context,
  ).execute();
  await db.schema
    .createIndex('idx_statistics_months_user')
    .on('statistics_months')
    .columns(['user_id', 'date'])
    .execute();

  await finishTable(
    createTableWithId(db, context, 'statistics_month_generated_histories')
      .addColumn('date', 'varchar(10)', (column) => column.notNull().unique())
      .addColumn('count', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (column) => column.notNull()),
    context,
  ).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['statistics_month_generated_histories', 'statistics_months']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
