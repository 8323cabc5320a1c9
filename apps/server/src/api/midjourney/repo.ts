import { MIDJOURNEY_SORT_FIELDS, type MidjourneyListQuery, type Paged } from '@one-hub/contracts';
import type { Selectable } from 'kysely';
import { type DatabaseHandle, fetchPage, type MidjourneysTable } from '../../platform/db/index.js';

export type MidjourneyListRow = Selectable<MidjourneysTable>;

/**
 * Who is listing: an administrator sees every task but those of the users it does not outrank
 * (`hiddenUserIds`: root and the other admins; none for root), a user only their own.
 */
export type MidjourneyListScope = { admin: true; hiddenUserIds: readonly number[] } | { admin: false; userId: number };

/** Pages of `midjourneys` for the console (reference §1.17); times filter `submit_time` in ms. */
export function listMidjourneys(
  handle: DatabaseHandle,
  scope: MidjourneyListScope,
  query: MidjourneyListQuery,
): Promise<Paged<MidjourneyListRow>> {
  let select = handle.db.selectFrom('midjourneys').selectAll();
  if (scope.admin) {
    if (scope.hiddenUserIds.length > 0) select = select.where('user_id', 'not in', [...scope.hiddenUserIds]);
    if (query.channel_id) select = select.where('channel_id', '=', query.channel_id);
  } else {
    select = select.where('user_id', '=', scope.userId);
    if (query.token_id) select = select.where('token_id', '=', query.token_id);
  }
  if (query.mj_id) select = select.where('mj_id', '=', query.mj_id);
  if (query.start_timestamp) select = select.where('submit_time', '>=', query.start_timestamp);
  if (query.end_timestamp) select = select.where('submit_time', '<=', query.end_timestamp);
  return fetchPage(select, query, MIDJOURNEY_SORT_FIELDS);
}
