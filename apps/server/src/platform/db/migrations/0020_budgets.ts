import { type AnyDb, finishTable, type MigrationContext } from './helpers.js';

/**
 * Budgets per window (issue 33): a user's and a user group's lists of windows (JSON; a key keeps
 * its own in `tokens.setting`), a group's tokens-per-minute limit, and the use of each subject's
 * current window. `budget_usage` holds one row per subject (`key:<id>`, `user:<id>`, `sub:<id>`) and
 * period; the relay keeps the live counts in memory or Redis and writes them here in batches, so a
 * restart resumes the window where it was.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  // varchar, not text: MySQL gives no default to a text column; eight windows fit in far less.
  await db.schema
    .alterTable('users')
    .addColumn('budgets', 'varchar(1024)', (column) => column.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('user_groups')
    .addColumn('budgets', 'varchar(1024)', (column) => column.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('user_groups')
    .addColumn('tpm', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await finishTable(
    db.schema
      .createTable('budget_usage')
      .addColumn('subject', 'varchar(64)', (column) => column.notNull())
      .addColumn('period', 'varchar(8)', (column) => column.notNull())
      .addColumn('started_at', 'bigint', (column) => column.notNull())
      .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('requests', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('pk_budget_usage', ['subject', 'period']),
    context,
  ).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('budget_usage').ifExists().execute();
  await db.schema.alterTable('user_groups').dropColumn('tpm').execute();
  await db.schema.alterTable('user_groups').dropColumn('budgets').execute();
  await db.schema.alterTable('users').dropColumn('budgets').execute();
}
