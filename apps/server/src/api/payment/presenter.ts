import type {
  OrderStatus,
  OrderView,
  PaymentCurrency,
  PaymentGatewayType,
  PaymentGatewayView,
  UserPaymentView,
} from '@one-hub/contracts';
import { centsOf, centsToNumber } from '../../payments/money.js';
import { type OrderRow, type PaymentRow, toBoolean } from '../../platform/db/index.js';

/** A decimal(10,2) column as a JSON number with at most two decimals, whatever the driver returned. */
export const money = (value: number | string): number => centsToNumber(centsOf(value));

/** A fraction such as percent_fee, which the column keeps to two decimals as One Hub's does. */
const fraction = (value: number | string): number => Number(value);

/** `config` is passed in already masked: the presenter never sees a secret. */
export function toGatewayView(row: PaymentRow, maskedConfig: string): PaymentGatewayView {
  return {
    id: row.id,
    uuid: row.uuid,
    type: row.type as PaymentGatewayType,
    name: row.name,
    icon: row.icon,
    notify_domain: row.notify_domain,
    fixed_fee: money(row.fixed_fee),
    percent_fee: fraction(row.percent_fee),
    currency: row.currency as PaymentCurrency,
    config: maskedConfig,
    sort: row.sort,
    enable: toBoolean(row.enable),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

export function toUserPaymentView(row: PaymentRow): UserPaymentView {
  return {
    uuid: row.uuid,
    name: row.name,
    icon: row.icon,
    type: row.type as PaymentGatewayType,
    fixed_fee: money(row.fixed_fee),
    percent_fee: fraction(row.percent_fee),
    currency: row.currency as PaymentCurrency,
    sort: row.sort,
  };
}

export function toOrderView(row: OrderRow): OrderView {
  return {
    id: row.id,
    user_id: row.user_id,
    gateway_id: row.gateway_id,
    trade_no: row.trade_no,
    gateway_no: row.gateway_no,
    amount: row.amount,
    order_amount: money(row.order_amount),
    order_currency: row.order_currency as PaymentCurrency,
    quota: Number(row.quota),
    fee: money(row.fee),
    discount: money(row.discount),
    status: row.status as OrderStatus,
    plan_id: Number(row.plan_id),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}
