import { PLAN_SORT_FIELDS } from '@one-hub/contracts';
import { parsePaging, writePaging } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { PlanListParams } from './plan.api.js';

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parsePlanListParams(search: URLSearchParams): PlanListParams {
  return { keyword: search.get('keyword')?.trim() ?? '', ...parsePaging(search, PLAN_SORT_FIELDS) };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function planListSearch(params: PlanListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.keyword) search.set('keyword', params.keyword);
  return writePaging(search, params);
}

/** The plan list state kept in the URL; changing anything but the page goes back to page 1. */
export function usePlanListParams(): [PlanListParams, (changes: Partial<PlanListParams>) => void] {
  return useUrlListParams(parsePlanListParams, planListSearch);
}
