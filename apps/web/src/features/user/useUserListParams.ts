import { DEFAULT_PAGE_SIZE, USER_SORT_FIELDS } from '@one-hub/contracts';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { UserListParams } from './user.api.js';

export const USER_PAGE_SIZES = [10, 20, 50, 100] as const;

function positiveInteger(text: string | null, fallback: number): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseUserListParams(search: URLSearchParams): UserListParams {
  const size = positiveInteger(search.get('size'), DEFAULT_PAGE_SIZE);
  const order = search.get('order') ?? '';
  return {
    keyword: search.get('keyword')?.trim() ?? '',
    order: (USER_SORT_FIELDS as readonly string[]).includes(order.replace(/^-/, '')) ? order : '',
    page: positiveInteger(search.get('page'), 1),
    size: (USER_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function userListSearch(params: UserListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.keyword) search.set('keyword', params.keyword);
  if (params.order) search.set('order', params.order);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.size !== DEFAULT_PAGE_SIZE) search.set('size', String(params.size));
  return search;
}

/** The user list state kept in the URL; a change of keyword, order or size goes back to page 1. */
export function useUserListParams(): [UserListParams, (changes: Partial<UserListParams>) => void] {
  return useUrlListParams(parseUserListParams, userListSearch);
}
