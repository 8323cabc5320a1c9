import { type Paged, TASK_SORT_FIELDS, type TaskListQuery } from '@one-hub/contracts';
import type { Selectable } from 'kysely';
import { type DatabaseHandle, fetchPage, type TasksTable } from '../../platform/db/index.js';

export type TaskListRow = Selectable<TasksTable>;

/**
 * Who is listing: an administrator sees every task but those of the users it does not outrank
 * (`hiddenUserIds`: root and the other admins; none for root), a user only their own.
 */
export type TaskListScope = { admin: true; hiddenUserIds: readonly number[] } | { admin: false; userId: number };

/** Pages of `tasks` (Suno, Kling) for the console (reference §1.17); times filter `submit_time` in seconds. */
export function listTasks(
  handle: DatabaseHandle,
  scope: TaskListScope,
  query: TaskListQuery,
): Promise<Paged<TaskListRow>> {
  let select = handle.db.selectFrom('tasks').selectAll();
  if (scope.admin) {
    if (scope.hiddenUserIds.length > 0) select = select.where('user_id', 'not in', [...scope.hiddenUserIds]);
    if (query.channel_id) select = select.where('channel_id', '=', query.channel_id);
    if (query.user_id) select = select.where('user_id', '=', query.user_id);
    if (query.user_ids?.length) select = select.where('user_id', 'in', query.user_ids);
  } else {
    select = select.where('user_id', '=', scope.userId);
    if (query.token_id) select = select.where('token_id', '=', query.token_id);
  }
  if (query.platform) select = select.where('platform', '=', query.platform);
  if (query.task_id) select = select.where('task_id', '=', query.task_id);
  if (query.action) select = select.where('action', '=', query.action);
  if (query.status) select = select.where('status', '=', query.status);
  if (query.start_timestamp) select = select.where('submit_time', '>=', query.start_timestamp);
  if (query.end_timestamp) select = select.where('submit_time', '<=', query.end_timestamp);
  return fetchPage(select, query, TASK_SORT_FIELDS);
}
