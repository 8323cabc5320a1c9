import type {
  CreateOrderBody,
  OrderQuote,
  PayInstruction,
  TopUpBody,
  UserPaymentView,
  UserView,
} from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { selfQueryKey } from '../../hooks/useSelf.js';
import { userPlanQueryKey } from '../../hooks/useUserPlan.js';
import { api, isApiError, withQuery } from '../../lib/api.js';
import { type OrderState, orderStateOfFailure } from './payment.js';

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
  quote: (uuid: string, amount: number) => ['user', 'order', 'quote', uuid, amount] as const,
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
      const gateways = await api.get<UserPaymentView[] | null>('/api/user/payment');
      return [...(gateways ?? [])].sort((left, right) => right.sort - left.sort);
    },
    staleTime: 60_000,
    meta: { silentError: true },
  });
}

/**
 * `GET /api/user/order/quote`: the discount, fee and total the server will charge, asked for only
 * while the amount is valid. Its refusal (below the minimum, say) is shown under the amount.
 */
export function useOrderQuote(uuid: string, amount: number | null) {
  return useQuery({
    queryKey: topupKeys.quote(uuid, amount ?? 0),
    queryFn: () => api.get<OrderQuote>(withQuery('/api/user/order/quote', { uuid, amount })),
    enabled: Boolean(uuid) && amount !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
    meta: { silentError: true },
  });
}

/** `POST /api/user/order`: the server's refusal is shown as its message (toast). */
export function useCreateOrder() {
  return useMutation({
    mutationFn: (body: CreateOrderBody) => api.post<PayInstruction>('/api/user/order', body),
  });
}

/**
 * Polls `GET /api/user/order/status` every 3 s while `tradeNo` is set (the dialog is open), until the
 * order is paid or can no longer be. A paid order refreshes the balance and the plan everywhere.
 */
export function useOrderStatus(tradeNo: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: topupKeys.order(tradeNo ?? ''),
    queryFn: async (): Promise<OrderState> => {
      try {
        await api.get<unknown>(withQuery('/api/user/order/status', { trade_no: tradeNo }));
      } catch (error) {
        if (isApiError(error) && error.status !== 401) return orderStateOfFailure(error.status, error.message);
        throw error;
      }
      // An order may be for a plan: its status and windows change as the balance does, while the dialog is open.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: topupKeys.self }),
        queryClient.invalidateQueries({ queryKey: userPlanQueryKey }),
      ]);
      return { state: 'success' };
    },
    enabled: Boolean(tradeNo),
    refetchInterval: (query) => (query.state.data && query.state.data.state !== 'pending' ? false : ORDER_POLL_MS),
    // A background tab keeps polling: the payer is usually in the vendor's tab meanwhile.
    refetchIntervalInBackground: true,
    gcTime: 0,
    meta: { silentError: true },
  });
}
