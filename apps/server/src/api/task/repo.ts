import { type Paged, TASK_SORT_FIELDS, type TaskListQuery } from '@one-hub/contracts';
import type { Selectable } from 'kysely';
import { type DatabaseHandle, fetchPage, type TasksTable, whereGiven } from '../../platform/db/index.js';
import { scopeTaskList, type TaskListScope } from './scope.js';

export type TaskListRow = Selectable<TasksTable>;

/** Pages of `tasks` (Suno, Kling) for the console (reference §1.17); times filter `submit_time` in seconds. */
export function listTasks(
  handle: DatabaseHandle,
  scope: TaskListScope,
  query: TaskListQuery,
): Promise<Paged<TaskListRow>> {
  let select = scopeTaskList(handle.db.selectFrom('tasks').selectAll(), scope, query);
  if (scope.admin) {
    if (query.user_id) select = select.where('user_id', '=', query.user_id);
    if (query.user_ids?.length) select = select.where('user_id', 'in', query.user_ids);
  }
  select = whereGiven(select, {
    platform: query.platform,
    task_id: query.task_id,
    action: query.action,
    status: query.status,
  });
  return fetchPage(select, query, TASK_SORT_FIELDS);
}
