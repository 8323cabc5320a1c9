import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/**
 * Subscription plans (issue 33): `plans` (soft-deleted, so subscriptions keep naming theirs),
 * `subscriptions` (a user's plans, active or expired) and the plan an order buys. `price` is
 * decimal(10,2) like the payments' money; `budgets` and `models` are JSON text. At most one
 * active subscription per user is a unique index: an active row's `active_slot` is 0, an expired
 * row's its own id, so two activations racing on any database cannot both commit.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    createTableWithId(db, context, 'plans')
      .addColumn('name', 'varchar(50)', (column) => column.notNull())
      .addColumn('description', 'varchar(500)', (column) => column.notNull().defaultTo(''))
      .addColumn('price', 'decimal(10, 2)', (column) => column.notNull().defaultTo(0))
      .addColumn('currency', 'varchar(5)', (column) => column.notNull())
      .addColumn('duration_days', 'integer', (column) => column.notNull())
      .addColumn('budgets', 'text', (column) => column.notNull())
      .addColumn('group', 'varchar(50)', (column) => column.notNull().defaultTo(''))
      .addColumn('models', 'text', (column) => column.notNull())
      .addColumn('fallback_to_balance', 'boolean', (column) => column.notNull().defaultTo(true))
      .addColumn('enable', 'boolean', (column) => column.notNull().defaultTo(true))
      .addColumn('sort', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addColumn('deleted_at', 'bigint'),
    context,
  ).execute();

  await finishTable(
    createTableWithId(db, context, 'subscriptions')
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('plan_id', 'integer', (column) => column.notNull())
      .addColumn('status', 'varchar(16)', (column) => column.notNull())
      .addColumn('active_slot', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('started_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addColumn('group', 'varchar(50)', (column) => column.notNull().defaultTo(''))
      .addColumn('previous_group', 'varchar(50)', (column) => column.notNull().defaultTo(''))
      .addColumn('source', 'varchar(16)', (column) => column.notNull())
      .addColumn('order_trade_no', 'varchar(50)', (column) => column.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull()),
    context,
  ).execute();
  await db.schema
    .createIndex('idx_subscriptions_one_active')
    .on('subscriptions')
    .columns(['user_id', 'active_slot'])
    .unique()
    .execute();
  // A user's subscriptions by status (the relay's lookup, GET /api/user/plan); the expiry job's scan.
  await db.schema
    .createIndex('idx_subscriptions_user_status')
    .on('subscriptions')
    .columns(['user_id', 'status'])
    .execute();
  await db.schema
    .createIndex('idx_subscriptions_status_expires')
    .on('subscriptions')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('plan_id', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('plan_id').execute();
  for (const table of ['subscriptions', 'plans']) await db.schema.dropTable(table).ifExists().execute();
}
