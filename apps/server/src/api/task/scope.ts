import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * What the two task lists of the console (`midjourneys` at /api/mj, `tasks` at /api/task) share:
 * who may see which rows, and the filters by channel, key and submission time. Both tables have
 * `user_id`, `channel_id`, `token_id` and `submit_time` (milliseconds in one, seconds in the other,
 * as the query's timestamps are), so the columns are named by reference, as platform/db/paging.ts
 * does for its sort keys.
 */

/**
 * Who is listing: an administrator sees every task but those of the users it does not outrank
 * (`hiddenUserIds`: root and the other admins; none for root), a user only their own.
 */
export type TaskListScope = { admin: true; hiddenUserIds: readonly number[] } | { admin: false; userId: number };

export interface ScopedListQuery {
  channel_id?: number | undefined;
  token_id?: number | undefined;
  start_timestamp?: number | undefined;
  end_timestamp?: number | undefined;
}

/** An administrator filters by channel, a user by their key; both by submission time. */
export function scopeTaskList<DB, TB extends keyof DB, Row>(
  select: SelectQueryBuilder<DB, TB, Row>,
  scope: TaskListScope,
  query: ScopedListQuery,
): SelectQueryBuilder<DB, TB, Row> {
  let scoped = select;
  if (scope.admin) {
    if (scope.hiddenUserIds.length > 0) scoped = scoped.where(sql.ref('user_id'), 'not in', [...scope.hiddenUserIds]);
    if (query.channel_id) scoped = scoped.where(sql.ref('channel_id'), '=', query.channel_id);
  } else {
    scoped = scoped.where(sql.ref('user_id'), '=', scope.userId);
    if (query.token_id) scoped = scoped.where(sql.ref('token_id'), '=', query.token_id);
  }
  if (query.start_timestamp) scoped = scoped.where(sql.ref('submit_time'), '>=', query.start_timestamp);
  if (query.end_timestamp) scoped = scoped.where(sql.ref('submit_time'), '<=', query.end_timestamp);
  return scoped;
}
