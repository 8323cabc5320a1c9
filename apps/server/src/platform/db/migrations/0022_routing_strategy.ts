import type { AnyDb } from './helpers.js';

/**
 * A user group's balancing strategy (issue 34): how its requests choose among the channels of one
 * priority tier — `weighted` (random by weight, One Hub's), `latency` or `least_in_flight`.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('user_groups')
    .addColumn('routing_strategy', 'varchar(32)', (column) => column.notNull().defaultTo('weighted'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('user_groups').dropColumn('routing_strategy').execute();
}
