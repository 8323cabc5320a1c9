import { DEFAULT_PAGE_SIZE, REDEMPTION_SORT_FIELDS, RedemptionStatus } from '@one-hub/contracts';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { RedemptionListParams } from './redemption.api.js';

export const REDEMPTION_PAGE_SIZES = [10, 20, 50, 100] as const;
/** The status filter's choices; 0 = any. */
export const REDEMPTION_STATUS_FILTERS = [
  0,
  RedemptionStatus.enabled,
  RedemptionStatus.redeemed,
  RedemptionStatus.disabled,
] as const;
export type RedemptionSortField = (typeof REDEMPTION_SORT_FIELDS)[number];

function positiveInteger(text: string | null, fallback: number): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseRedemptionListParams(search: URLSearchParams): RedemptionListParams {
  const size = positiveInteger(search.get('size'), DEFAULT_PAGE_SIZE);
  const status = Number(search.get('status'));
  const order = search.get('order') ?? '';
  return {
    keyword: search.get('keyword')?.trim() ?? '',
    status: (REDEMPTION_STATUS_FILTERS as readonly number[]).includes(status) ? status : 0,
    order: (REDEMPTION_SORT_FIELDS as readonly string[]).includes(order.replace(/^-/, '')) ? order : '',
    page: positiveInteger(search.get('page'), 1),
    size: (REDEMPTION_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function redemptionListSearch(params: RedemptionListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.keyword) search.set('keyword', params.keyword);
  if (params.status) search.set('status', String(params.status));
  if (params.order) search.set('order', params.order);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.size !== DEFAULT_PAGE_SIZE) search.set('size', String(params.size));
  return search;
}

/** The code list state kept in the URL; a change of anything but the page goes back to page 1. */
export function useRedemptionListParams(): [RedemptionListParams, (changes: Partial<RedemptionListParams>) => void] {
  return useUrlListParams(parseRedemptionListParams, redemptionListSearch);
}
