import type {
  OrderView,
  Paged,
  PaymentGatewayBody,
  PaymentGatewayView,
  UpdatePaymentGatewayBody,
} from '@one-hub/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';
import type { GatewayListParams, OrderListParams } from './paymentListParams.js';

export const paymentKeys = {
  all: ['payment'] as const,
  gateways: (params: GatewayListParams) => ['payment', 'gateways', params] as const,
  orders: (params: OrderListParams) => ['payment', 'orders', params] as const,
};

/** `GET /api/payment/`: the gateways, one page at a time. */
export function usePaymentGatewayList(params: GatewayListParams) {
  return useQuery({
    queryKey: paymentKeys.gateways(params),
    queryFn: () =>
      api.get<Paged<PaymentGatewayView>>(
        withQuery('/api/payment/', { ...params, type: params.type || undefined, name: params.name || undefined }),
      ),
    placeholderData: keepPreviousData,
  });
}

function useInvalidatePayments() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: paymentKeys.all });
}

/** `POST /api/payment/`; the dialog shows the refusal (a bad key, an unreachable Stripe) inline. */
export function useCreatePaymentGateway() {
  const invalidate = useInvalidatePayments();
  return useMutation({
    mutationFn: (body: PaymentGatewayBody) => api.post<PaymentGatewayView>('/api/payment/', body),
    onSuccess: invalidate,
    meta: { silentError: true },
  });
}

/** `PUT /api/payment/`: with `uuid` the whole row (the dialog), without it only the fields sent (toggles). */
export function useUpdatePaymentGateway(options: { silent?: boolean } = {}) {
  const invalidate = useInvalidatePayments();
  return useMutation({
    mutationFn: (body: UpdatePaymentGatewayBody) => api.put<PaymentGatewayView>('/api/payment/', body),
    onSettled: invalidate,
    meta: { silentError: Boolean(options.silent) },
  });
}

export function useDeletePaymentGateway() {
  const invalidate = useInvalidatePayments();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/payment/${id}`),
    onSuccess: invalidate,
  });
}

/** `GET /api/payment/order`: every user's orders, newest first unless sorted otherwise. */
export function usePaymentOrders(params: OrderListParams) {
  return useQuery({
    queryKey: paymentKeys.orders(params),
    queryFn: () => {
      const { trade_no, gateway_no, user_id, status, start_timestamp, end_timestamp, ...paging } = params;
      return api.get<Paged<OrderView>>(
        withQuery('/api/payment/order', {
          ...paging,
          trade_no: trade_no || undefined,
          gateway_no: gateway_no || undefined,
          user_id: user_id || undefined,
          status: status || undefined,
          start_timestamp: start_timestamp || undefined,
          end_timestamp: end_timestamp || undefined,
        }),
      );
    },
    placeholderData: keepPreviousData,
  });
}
