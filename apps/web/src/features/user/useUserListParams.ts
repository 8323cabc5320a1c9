import { USER_SORT_FIELDS } from '@one-hub/contracts';
import { parsePaging, writePaging } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { UserListParams } from './user.api.js';

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseUserListParams(search: URLSearchParams): UserListParams {
  return { keyword: search.get('keyword')?.trim() ?? '', ...parsePaging(search, USER_SORT_FIELDS) };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function userListSearch(params: UserListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.keyword) search.set('keyword', params.keyword);
  return writePaging(search, params);
}

/** The user list state kept in the URL; a change of keyword, order or size goes back to page 1. */
export function useUserListParams(): [UserListParams, (changes: Partial<UserListParams>) => void] {
  return useUrlListParams(parseUserListParams, userListSearch);
}
