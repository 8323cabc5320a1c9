import { sql } from 'kysely';
import type { AnyDb, MigrationContext } from './helpers.js';

/** Content of the system log row written when an inviter is paid (see api/user/invite-reward.ts). */
const INVITER_REWARD_LOG = '邀请用户赠送%';
const SYSTEM_LOG = 4;

/**
 * The reference's invite counters on `users`: `aff_count` (invitees registered with the user's
 * code), `aff_quota` and `aff_history` (JSON `aff_history_quota`: reward quota earned). Existing
 * rows are filled from what is already recorded: invitees by `inviter_id`, rewards from the
 * inviters' reward log rows (read through the `user_id` index, one inviter at a time).
 */
export async function up(db: AnyDb): Promise<void> {
  for (const column of ['aff_count', 'aff_quota', 'aff_history']) {
    await db.schema
      .alterTable('users')
      .addColumn(column, column === 'aff_count' ? 'integer' : 'bigint', (definition) =>
        definition.notNull().defaultTo(0),
      )
      .execute();
  }
  await db.schema.createIndex('idx_users_inviter_id').on('users').column('inviter_id').execute();
  const inviters = await db
    .selectFrom('users')
    .select(['inviter_id', sql<number>`count(*)`.as('invitees')])
    .where('inviter_id', '>', 0)
    .groupBy('inviter_id')
    .execute();
  for (const inviter of inviters) {
    const paid = await db
      .selectFrom('logs')
      .select(sql<number>`coalesce(sum(quota), 0)`.as('total'))
      .where('user_id', '=', inviter.inviter_id)
      .where('type', '=', SYSTEM_LOG)
      .where('content', 'like', INVITER_REWARD_LOG)
      .executeTakeFirst();
    const total = Number(paid?.total ?? 0);
    await db
      .updateTable('users')
      .set({ aff_count: Number(inviter.invitees), aff_quota: total, aff_history: total })
      .where('id', '=', inviter.inviter_id)
      .execute();
  }
}

export async function down(db: AnyDb, context: MigrationContext): Promise<void> {
  // Only MySQL names the table of an index it drops.
  const drop = db.schema.dropIndex('idx_users_inviter_id');
  await (context.dialect === 'mysql' ? drop.on('users') : drop).execute();
  for (const column of ['aff_history', 'aff_quota', 'aff_count']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
