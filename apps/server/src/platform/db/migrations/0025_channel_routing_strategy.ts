import type { AnyDb } from './helpers.js';

/**
 * A channel's balancing strategy inside its priority tier (issue 34), set for a whole tag through
 * the tag editor: '' follows the user group's strategy; a tier whose channels all name the same
 * strategy uses it instead.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('channels')
    .addColumn('routing_strategy', 'varchar(32)', (column) => column.notNull().defaultTo(''))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('routing_strategy').execute();
}
