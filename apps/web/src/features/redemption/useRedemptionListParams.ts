import { REDEMPTION_SORT_FIELDS, RedemptionStatus } from '@one-hub/contracts';
import { parsePaging, writePaging } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { RedemptionListParams } from './redemption.api.js';

/** The status filter's choices; 0 = any. */
export const REDEMPTION_STATUS_FILTERS = [
  0,
  RedemptionStatus.enabled,
  RedemptionStatus.redeemed,
  RedemptionStatus.disabled,
] as const;
export type RedemptionSortField = (typeof REDEMPTION_SORT_FIELDS)[number];

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseRedemptionListParams(search: URLSearchParams): RedemptionListParams {
  const status = Number(search.get('status'));
  return {
    keyword: search.get('keyword')?.trim() ?? '',
    status: (REDEMPTION_STATUS_FILTERS as readonly number[]).includes(status) ? status : 0,
    ...parsePaging(search, REDEMPTION_SORT_FIELDS),
  };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function redemptionListSearch(params: RedemptionListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.keyword) search.set('keyword', params.keyword);
  if (params.status) search.set('status', String(params.status));
  return writePaging(search, params);
}

/** The code list state kept in the URL; a change of anything but the page goes back to page 1. */
export function useRedemptionListParams(): [RedemptionListParams, (changes: Partial<RedemptionListParams>) => void] {
  return useUrlListParams(parseRedemptionListParams, redemptionListSearch);
}
