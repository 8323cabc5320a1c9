import { MIDJOURNEY_SORT_FIELDS, type MidjourneyListQuery, type Paged } from '@one-hub/contracts';
import type { Selectable } from 'kysely';
import { type DatabaseHandle, fetchPage, type MidjourneysTable } from '../../platform/db/index.js';
import { scopeTaskList, type TaskListScope } from '../task/scope.js';

export type MidjourneyListRow = Selectable<MidjourneysTable>;

/** Pages of `midjourneys` for the console (reference §1.17); times filter `submit_time` in ms. */
export function listMidjourneys(
  handle: DatabaseHandle,
  scope: TaskListScope,
  query: MidjourneyListQuery,
): Promise<Paged<MidjourneyListRow>> {
  let select = scopeTaskList(handle.db.selectFrom('midjourneys').selectAll(), scope, query);
  if (query.mj_id) select = select.where('mj_id', '=', query.mj_id);
  return fetchPage(select, query, MIDJOURNEY_SORT_FIELDS);
}
