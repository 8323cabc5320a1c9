import type { AnyDb } from './helpers.js';

/**
 * A per-user session generation. Every session cookie names the generation it was issued in;
 * signing out, changing or resetting the password (and an administrator disabling or deleting the
 * user) bumps it, so every older cookie stops working at once on every node.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('session_generation', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('session_generation').execute();
}
