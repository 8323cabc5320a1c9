import type { AnyDb } from './helpers.js';

/**
 * `email_verified`: 1 once the user proved the address (an e-mail code, or a provider that says it
 * verified it); external sign-ins match existing users by e-mail only then. `inviter_reward_pending`:
 * 1 while the inviter's reward waits for the condition in `InviterRewardCondition`; cleared by the
 * one conditional update that pays it. Existing rows get 0 for both: nothing is owed or trusted.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('inviter_reward_pending', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('inviter_reward_pending').execute();
  await db.schema.alterTable('users').dropColumn('email_verified').execute();
}
