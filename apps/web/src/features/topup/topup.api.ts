import type { TopUpBody, UserView } from '@one-hub/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { selfQueryKey } from '../../hooks/useSelf.js';
import { api, isApiError, withQuery } from '../../lib/api.js';
import type { PaymentGateway, PaymentOrder } from './payment.js';

/**
 * `['user', 'self']` is shared with the session guard and the dashboard, so a redeemed code
 * shows in every balance at once.
 */
export const topupKeys = {
  user: ['user'] as const,
  self: selfQueryKey,
  aff: ['user', 'aff'] as const,
  gateways: ['user', 'payment'] as const,
  order: (tradeNo: string) => ['user', 'order', tradeNo] as const,
};

/** The reference polls an order's status every 3 s (§4.10). */
const ORDER_POLL_MS = 3_000;

/** The user may carry invite figures on servers that keep them; this one does not yet. */
export type SelfWithInvites = UserView & {
  aff_count?: number;
  aff_quota?: number;
  aff_history_quota?: number;
};

/** `POST /api/user/topup {key}` → the quota added. Errors (unknown or used code) toast the server's message. */
export function useRedeemCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TopUpBody) => api.post<number>('/api/user/topup', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: topupKeys.user }),
  });
}

/** `GET /api/user/aff`: the invite code, created by the server on first use. */
export function useAffCode() {
  return useQuery({
    queryKey: topupKeys.aff,
    queryFn: () => api.get<string>('/api/user/aff'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * `GET /api/user/payment`: the enabled gateways, highest sort first (an empty list while the server
 * has none). The section is optional, so a failure is not toasted: the page just shows no gateways.
 */
export function usePaymentGateways() {
  return useQuery({
    queryKey: topupKeys.gateways,
    queryFn: async () => {
      const gateways = await api.get<PaymentGateway[] | null>('/api/user/payment');
      return [...(gateways ?? [])].sort((left, right) => right.sort - left.sort);
    },
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

export function useCreateOrder() {
  return useMutation({
    mutationFn: (body: { uuid: string; amount: number }) => api.post<PaymentOrder>('/api/user/order', body),
  });
}

/**
 * Polls `GET /api/user/order/status` while `tradeNo` is set. The server answers success only once
 * the order is paid; anything else means "not yet".
 */
export function useOrderPaid(tradeNo: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: topupKeys.order(tradeNo ?? ''),
    queryFn: async () => {
      try {
        await api.get<unknown>(withQuery('/api/user/order/status', { trade_no: tradeNo }));
        await queryClient.invalidateQueries({ queryKey: topupKeys.self });
        return true;
      } catch (error) {
        if (isApiError(error) && error.status !== 401) return false;
        throw error;
      }
    },
    enabled: Boolean(tradeNo),
    refetchInterval: (query) => (query.state.data ? false : ORDER_POLL_MS),
    meta: { silentError: true },
  });
}
