import type { AnyDb } from './helpers.js';

/**
 * `users.password_change_required`: 1 while the account still has a password the server made up
 * (root's first-start password, or one set by `npm run reset-root-password`); the console asks for a
 * new one at sign-in, and choosing one clears it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('password_change_required', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}
