import type {
  CreateRedemptionBody,
  Paged,
  RedemptionStatus,
  RedemptionView,
  UpdateRedemptionBody,
} from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';

/** What the code list asks for; every field lives in the URL (see useRedemptionListParams). */
export interface RedemptionListParams {
  keyword: string;
  /** 0 = any status. */
  status: number;
  order: string;
  page: number;
  size: number;
}

export const redemptionKeys = {
  all: ['redemption'] as const,
  list: (params: RedemptionListParams) => ['redemption', 'list', params] as const,
};

/** `GET /api/redemption/`: every code, one page at a time. */
export function useRedemptions(params: RedemptionListParams) {
  return useQuery({
    queryKey: redemptionKeys.list(params),
    queryFn: () =>
      api.get<Paged<RedemptionView>>(withQuery('/api/redemption/', { ...params, status: params.status || undefined })),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateRedemptions() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: redemptionKeys.all });
}

/** `POST /api/redemption/`: answers the new codes. The dialog shows refusals inline. */
export function useCreateRedemptions() {
  const invalidate = useInvalidateRedemptions();
  return useMutation({
    mutationFn: (body: CreateRedemptionBody) => api.post<string[]>('/api/redemption/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** `PUT /api/redemption/`: name and (for an unredeemed code) quota. */
export function useUpdateRedemption() {
  const invalidate = useInvalidateRedemptions();
  return useMutation({
    mutationFn: (body: UpdateRedemptionBody) => api.put<RedemptionView>('/api/redemption/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** `PUT /api/redemption/?status_only=1`; the server refuses to touch a redeemed code (error toast). */
export function useSetRedemptionStatus() {
  const invalidate = useInvalidateRedemptions();
  return useMutation({
    mutationFn: (body: { id: number; status: RedemptionStatus }) =>
      api.put<RedemptionView>('/api/redemption/?status_only=1', body),
    onSettled: invalidate,
  });
}

export function useDeleteRedemption() {
  const invalidate = useInvalidateRedemptions();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/redemption/${id}`),
    onSuccess: invalidate,
  });
}
