import type { AnyDb } from './helpers.js';

/**
 * Routing per user group (issue 34): the models tried when every channel of the requested one
 * failed (a JSON object, as a key keeps its own in `tokens.setting`), and whether requests of one
 * conversation stay on one channel (cache affinity, on by default).
 */
export async function up(db: AnyDb): Promise<void> {
  // varchar, not text: MySQL gives no default to a text column.
  await db.schema
    .alterTable('user_groups')
    .addColumn('fallbacks', 'varchar(4096)', (column) => column.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .alterTable('user_groups')
    .addColumn('cache_affinity', 'boolean', (column) => column.notNull().defaultTo(true))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('user_groups').dropColumn('cache_affinity').execute();
  await db.schema.alterTable('user_groups').dropColumn('fallbacks').execute();
}
