import type {
  AdminTokenView,
  AdminUpdateTokenBody,
  CreateTokenBody,
  Paged,
  TokenStatus,
  TokenView,
  UpdateTokenBody,
} from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';

/** What the token list asks for; every field lives in the URL (see useTokenListParams). */
export interface TokenListParams {
  keyword: string;
  order: string;
  page: number;
  size: number;
  /** `all`: an administrator's view of every user's keys (`GET /api/token/admin/search`). */
  scope: 'own' | 'all';
  /** Filters of the `all` view, as typed ('' = none). */
  user_id: string;
  token_id: string;
}

/** A row of either list: administrators' rows also name the key's owner. */
export type TokenRow = TokenView & { owner_name?: string };

export const tokenKeys = {
  all: ['token'] as const,
  list: (params: TokenListParams) => ['token', 'list', params] as const,
};

/**
 * `GET /api/token/`: the caller's keys, one page at a time; with `allUsers` (administrators only)
 * `GET /api/token/admin/search`: the keys of every user the caller outranks, with their owners.
 */
export function useTokens(params: TokenListParams, allUsers: boolean) {
  const { keyword, order, page, size, user_id, token_id } = params;
  const query = allUsers ? { keyword, order, page, size, user_id, token_id } : { keyword, order, page, size };
  return useQuery({
    queryKey: tokenKeys.list({ ...params, scope: allUsers ? 'all' : 'own' }),
    queryFn: () =>
      allUsers
        ? api.get<Paged<AdminTokenView>>(withQuery('/api/token/admin/search', query))
        : api.get<Paged<TokenRow>>(withQuery('/api/token/', query)),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateTokens() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: tokenKeys.all });
}

/**
 * `POST /api/token/` (no id) or `PUT /api/token/` (with id); with `admin`, `PUT /api/token/admin`
 * for a key of another user, whose `user_id` moves it. The dialog shows refusals inline, so no
 * toast is raised here.
 */
export function useSaveToken(admin = false) {
  const invalidate = useInvalidateTokens();
  const updatePath = admin ? '/api/token/admin' : '/api/token/';
  return useMutation({
    mutationFn: (body: CreateTokenBody | UpdateTokenBody | AdminUpdateTokenBody) =>
      'id' in body ? api.put<TokenView>(updatePath, body) : api.post<TokenView>('/api/token/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/**
 * `PUT /api/token/?status_only=1` (or `/api/token/admin?status_only=1` for another user's key); the
 * server refuses to enable expired or exhausted keys (error toast).
 */
export function useSetTokenStatus(admin = false) {
  const invalidate = useInvalidateTokens();
  const path = admin ? '/api/token/admin?status_only=1' : '/api/token/?status_only=1';
  return useMutation({
    mutationFn: (body: { id: number; status: TokenStatus }) => api.put<TokenView>(path, body),
    onSettled: invalidate,
  });
}

export function useDeleteToken() {
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/token/${id}`),
    onSuccess: invalidate,
  });
}

/**
 * `GET /api/token/:id`: one of the caller's keys with the current use of its budget windows
 * (`budget_windows`), for the edit dialog; read afresh at each opening.
 */
export function useTokenDetail(id: number | null) {
  return useQuery({
    queryKey: ['token', 'detail', id] as const,
    queryFn: () => api.get<TokenView>(`/api/token/${id}`),
    enabled: id !== null,
    staleTime: 0,
    meta: { silentError: true },
  });
}
