import type { CreateUserGroupBody, Paged, UpdateUserGroupBody, UserGroupView } from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userGroupMapQueryKey } from '../../hooks/useUserGroupMap.js';
import { api, withQuery } from '../../lib/api.js';

/** What the group list asks for; every field lives in the URL (see useUserGroupListParams). */
export interface UserGroupListParams {
  /** Name prefix. */
  name: string;
  /** '' for all, else only enabled or only disabled groups. */
  enable: '' | 'true' | 'false';
  order: string;
  page: number;
  size: number;
}

export const userGroupKeys = {
  all: ['userGroup'] as const,
  list: (params: UserGroupListParams) => ['userGroup', 'list', params] as const,
};

/** The user screen's own copy of every group (its key in user.api.ts), refreshed after changes here. */
const userScreenGroupsKey = ['user', 'groups'] as const;

/** `GET /api/user_group/`: the groups, filtered, ordered and paged by the server. */
export function useUserGroups(params: UserGroupListParams) {
  return useQuery({
    queryKey: userGroupKeys.list(params),
    queryFn: () => api.get<Paged<UserGroupView>>(withQuery('/api/user_group/', { ...params })),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/user_group/:id`: one group with how its members stand in its windows, read afresh at each opening. */
export function useUserGroupDetail(id: number | null) {
  return useQuery({
    queryKey: [...userGroupKeys.all, 'detail', id] as const,
    queryFn: () => api.get<UserGroupView>(`/api/user_group/${id}`),
    enabled: id !== null,
    staleTime: 0,
    meta: { silentError: true },
  });
}

/** After any change: this list, the site's group map (names elsewhere) and the user screen's copy. */
function useInvalidateGroups() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: userGroupKeys.all }),
      queryClient.invalidateQueries({ queryKey: userGroupMapQueryKey }),
      queryClient.invalidateQueries({ queryKey: userScreenGroupsKey }),
    ]);
}

/** `POST /api/user_group/` (no id) or `PUT /api/user_group/` (with id); the dialog shows refusals. */
export function useSaveUserGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (body: CreateUserGroupBody | UpdateUserGroupBody) =>
      'id' in body
        ? api.put<UserGroupView>('/api/user_group/', body)
        : api.post<UserGroupView>('/api/user_group/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** `PUT /api/user_group/enable/:id`: flips `enable` (the server refuses to disable `default`). */
export function useToggleUserGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (id: number) => api.put<UserGroupView>(`/api/user_group/enable/${id}`),
    onSettled: invalidate,
  });
}

/** `DELETE /api/user_group/:id`: refused for `default` and for groups that still have users. */
export function useDeleteUserGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/user_group/${id}`),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}
