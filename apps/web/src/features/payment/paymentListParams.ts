import type { PaymentGatewayType } from '@one-hub/contracts';
import { ORDER_STATUSES, type OrderStatus, PAYMENT_GATEWAY_TYPES } from '@one-hub/contracts';
import { parsePaging, wholeNumber, writePaging } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';

/**
 * The Payment screen's state in the URL: which tab, and each tab's filters and page, so a link to
 * "the order with trade number X" can be shared between administrators.
 */
export const PAYMENT_TABS = ['gateways', 'orders'] as const;
export type PaymentTab = (typeof PAYMENT_TABS)[number];

export interface GatewayListParams {
  type: PaymentGatewayType | '';
  name: string;
  order: string;
  page: number;
  size: number;
}

export interface OrderListParams {
  trade_no: string;
  gateway_no: string;
  /** 0 = anyone. */
  user_id: number;
  status: OrderStatus | '';
  /** Unix seconds, 0 = open. */
  start_timestamp: number;
  end_timestamp: number;
  order: string;
  page: number;
  size: number;
}

/** A positive whole number from the URL; 0 (no filter) otherwise. */
const positiveOrNone = (text: string | null) => wholeNumber(text, 1) ?? 0;

export function parseGatewayListParams(search: URLSearchParams): GatewayListParams {
  const type = search.get('type') ?? '';
  return {
    type: (PAYMENT_GATEWAY_TYPES as readonly string[]).includes(type) ? (type as PaymentGatewayType) : '',
    name: search.get('name')?.trim() ?? '',
    ...parsePaging(search),
  };
}

export function gatewayListSearch(params: GatewayListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.type) search.set('type', params.type);
  if (params.name) search.set('name', params.name);
  writePaging(search, params);
  return search;
}

export function parseOrderListParams(search: URLSearchParams): OrderListParams {
  const status = search.get('status') ?? '';
  return {
    trade_no: search.get('trade_no')?.trim() ?? '',
    gateway_no: search.get('gateway_no')?.trim() ?? '',
    user_id: positiveOrNone(search.get('user_id')),
    status: (ORDER_STATUSES as readonly string[]).includes(status) ? (status as OrderStatus) : '',
    start_timestamp: positiveOrNone(search.get('start_timestamp')),
    end_timestamp: positiveOrNone(search.get('end_timestamp')),
    ...parsePaging(search),
  };
}

export function orderListSearch(params: OrderListParams): URLSearchParams {
  const search = new URLSearchParams({ tab: 'orders' });
  for (const key of ['trade_no', 'gateway_no', 'status'] as const) if (params[key]) search.set(key, params[key]);
  for (const key of ['user_id', 'start_timestamp', 'end_timestamp'] as const) {
    if (params[key]) search.set(key, String(params[key]));
  }
  writePaging(search, params);
  return search;
}

export function useGatewayListParams() {
  return useUrlListParams(parseGatewayListParams, gatewayListSearch);
}

export function useOrderListParams() {
  return useUrlListParams(parseOrderListParams, orderListSearch);
}
