import { USER_GROUP_SORT_FIELDS } from '@one-hub/contracts';
import { parsePaging, writePaging } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { UserGroupListParams } from './userGroup.api.js';

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseUserGroupListParams(search: URLSearchParams): UserGroupListParams {
  const enable = search.get('enable');
  return {
    name: search.get('name')?.trim() ?? '',
    enable: enable === 'true' || enable === 'false' ? enable : '',
    ...parsePaging(search, USER_GROUP_SORT_FIELDS),
  };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function userGroupListSearch(params: UserGroupListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.name) search.set('name', params.name);
  if (params.enable) search.set('enable', params.enable);
  return writePaging(search, params);
}

/** The group list state kept in the URL; changing anything but the page goes back to page 1. */
export function useUserGroupListParams(): [UserGroupListParams, (changes: Partial<UserGroupListParams>) => void] {
  return useUrlListParams(parseUserGroupListParams, userGroupListSearch);
}
