import type {
  AdminCreateUserBody,
  AdminUpdateUserBody,
  ManageAction,
  Paged,
  QuotaChangeBody,
  UserGroupView,
  UserView,
} from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';

/** What the user list asks for; every field lives in the URL (see useUserListParams). */
export interface UserListParams {
  keyword: string;
  order: string;
  page: number;
  size: number;
}

export const userKeys = {
  all: ['user'] as const,
  list: (params: UserListParams) => ['user', 'list', params] as const,
  groups: ['user', 'groups'] as const,
};

/** `GET /api/user/`: every user, searched, ordered and paged by the server. */
export function useUsers(params: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: () => api.get<Paged<UserView>>(withQuery('/api/user/', { ...params })),
    placeholderData: keepPreviousData,
  });
}

/**
 * Every user group with its name, enabled or not (`GET /api/user_group/`, one page of the largest
 * size). The public group map only holds public groups, and a user may belong to any.
 */
export function useAllUserGroups() {
  return useQuery({
    queryKey: userKeys.groups,
    queryFn: async () => (await api.get<Paged<UserGroupView>>('/api/user_group/?size=100&order=id')).data,
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userKeys.all });
}

/** `POST /api/user/` (no id) or `PUT /api/user/` (with id); the dialog shows refusals inline. */
export function useSaveUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: AdminCreateUserBody | AdminUpdateUserBody) =>
      'id' in body ? api.put<UserView>('/api/user/', body) : api.post<UserView>('/api/user/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** `POST /api/user/manage`: enable, disable, delete, promote (make admin) or demote (cancel admin). */
export function useManageUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: { username: string; action: ManageAction }) =>
      api.post<{ role: number; status: number }>('/api/user/manage', body),
    onSettled: invalidate,
  });
}

/** `POST /api/user/quota/:id`: adds (or, negative, subtracts) quota; answers the updated user. */
export function useChangeQuota() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, ...body }: QuotaChangeBody & { id: number }) =>
      api.post<UserView>(`/api/user/quota/${id}`, body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** `GET /api/user/:id`: one user with the current use of their budget windows, read afresh at each opening. */
export function useUserDetail(id: number | null) {
  return useQuery({
    queryKey: ['user', 'detail', id] as const,
    queryFn: () => api.get<UserView>(`/api/user/${id}`),
    enabled: id !== null,
    staleTime: 0,
    meta: { silentError: true },
  });
}
