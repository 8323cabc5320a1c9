import { DEFAULT_PAGE_SIZE, USER_GROUP_SORT_FIELDS } from '@one-hub/contracts';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { UserGroupListParams } from './userGroup.api.js';

export const USER_GROUP_PAGE_SIZES = [10, 20, 50, 100] as const;

function positiveInteger(text: string | null, fallback: number): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseUserGroupListParams(search: URLSearchParams): UserGroupListParams {
  const size = positiveInteger(search.get('size'), DEFAULT_PAGE_SIZE);
  const order = search.get('order') ?? '';
  const enable = search.get('enable');
  return {
    name: search.get('name')?.trim() ?? '',
    enable: enable === 'true' || enable === 'false' ? enable : '',
    order: (USER_GROUP_SORT_FIELDS as readonly string[]).includes(order.replace(/^-/, '')) ? order : '',
    page: positiveInteger(search.get('page'), 1),
    size: (USER_GROUP_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function userGroupListSearch(params: UserGroupListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.name) search.set('name', params.name);
  if (params.enable) search.set('enable', params.enable);
  if (params.order) search.set('order', params.order);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.size !== DEFAULT_PAGE_SIZE) search.set('size', String(params.size));
  return search;
}

/** The group list state kept in the URL; changing anything but the page goes back to page 1. */
export function useUserGroupListParams(): [UserGroupListParams, (changes: Partial<UserGroupListParams>) => void] {
  return useUrlListParams(parseUserGroupListParams, userGroupListSearch);
}
