import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/**
 * Payment gateways and the orders paid through them, with One Hub's column names and types so an
 * imported database's rows fit. Money stays decimal(10,2) as there; the code reads and writes it
 * through integer cents (payments/money.ts). Both tables are soft-deleted as in One Hub.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    createTableWithId(db, context, 'payments')
      .addColumn('type', 'varchar(16)', (column) => column.notNull())
      .addColumn('uuid', 'char(32)', (column) => column.notNull().unique())
      .addColumn('name', 'varchar(255)', (column) => column.notNull())
      .addColumn('icon', 'varchar(300)', (column) => column.notNull().defaultTo(''))
      .addColumn('notify_domain', 'varchar(300)', (column) => column.notNull().defaultTo(''))
      .addColumn('fixed_fee', 'decimal(10, 2)', (column) => column.notNull().defaultTo(0))
      .addColumn('percent_fee', 'decimal(10, 2)', (column) => column.notNull().defaultTo(0))
      .addColumn('currency', 'varchar(5)', (column) => column.notNull())
      .addColumn('config', 'text', (column) => column.notNull())
      .addColumn('sort', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('enable', 'boolean', (column) => column.notNull().defaultTo(true))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addColumn('deleted_at', 'bigint'),
    context,
  ).execute();

  await finishTable(
    createTableWithId(db, context, 'orders')
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('gateway_id', 'integer', (column) => column.notNull())
      .addColumn('trade_no', 'varchar(50)', (column) => column.notNull().unique())
      .addColumn('gateway_no', 'varchar(100)', (column) => column.notNull().defaultTo(''))
      .addColumn('amount', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('order_amount', 'decimal(10, 2)', (column) => column.notNull().defaultTo(0))
      .addColumn('order_currency', 'varchar(16)', (column) => column.notNull())
      .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('fee', 'decimal(10, 2)', (column) => column.notNull().defaultTo(0))
      .addColumn('discount', 'decimal(10, 2)', (column) => column.notNull().defaultTo(0))
      .addColumn('status', 'varchar(32)', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addColumn('deleted_at', 'bigint'),
    context,
  ).execute();
  // The admin order list filters by these and sorts by creation; closing stale orders reads status + created_at.
  await db.schema.createIndex('idx_orders_status_created').on('orders').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('idx_orders_user_created').on('orders').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('idx_orders_gateway_no').on('orders').column('gateway_no').execute();
  await db.schema.createIndex('idx_payments_deleted_at').on('payments').column('deleted_at').execute();
  await db.schema.createIndex('idx_orders_deleted_at').on('orders').column('deleted_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['orders', 'payments']) await db.schema.dropTable(table).ifExists().execute();
}
