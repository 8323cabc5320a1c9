import type { CreateTokenBody, Paged, TokenStatus, TokenView, UpdateTokenBody } from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';

/** What the token list asks for; every field lives in the URL (see useTokenListParams). */
export interface TokenListParams {
  keyword: string;
  order: string;
  page: number;
  size: number;
}

export const tokenKeys = {
  all: ['token'] as const,
  list: (params: TokenListParams) => ['token', 'list', params] as const,
};

/** `GET /api/token/`: the caller's keys, one page at a time. */
export function useTokens(params: TokenListParams) {
  return useQuery({
    queryKey: tokenKeys.list(params),
    queryFn: () => api.get<Paged<TokenView>>(withQuery('/api/token/', { ...params })),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateTokens() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: tokenKeys.all });
}

/**
 * `POST /api/token/` (no id) or `PUT /api/token/` (with id). The dialog shows refusals inline,
 * so no toast is raised here.
 */
export function useSaveToken() {
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (body: CreateTokenBody | UpdateTokenBody) =>
      'id' in body ? api.put<TokenView>('/api/token/', body) : api.post<TokenView>('/api/token/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** `PUT /api/token/?status_only=1`; the server refuses to enable expired or exhausted keys (error toast). */
export function useSetTokenStatus() {
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: (body: { id: number; status: TokenStatus }) => api.put<TokenView>('/api/token/?status_only=1', body),
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
