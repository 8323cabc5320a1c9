import { z } from 'zod';
import { pageQuery } from './paging.js';

/**
 * Online top-up: payment gateways (the `payments` table) and the orders paid through them
 * (`orders`), with the reference system's paths and field names (reference §1.15, §4.10).
 * Money travels as JSON numbers with at most two decimals, as the reference sends it; the
 * server computes every amount in integer cents and never lets the browser do the arithmetic.
 */

export const PAYMENT_GATEWAY_TYPES = ['epay', 'alipay', 'wxpay', 'stripe'] as const;
export type PaymentGatewayType = (typeof PAYMENT_GATEWAY_TYPES)[number];

export const PAYMENT_CURRENCIES = ['USD', 'CNY'] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];

export const OrderStatus = {
  pending: 'pending',
  success: 'success',
  failed: 'failed',
  closed: 'closed',
} as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];
export const ORDER_STATUSES = Object.values(OrderStatus) as [OrderStatus, ...OrderStatus[]];

/** The most US dollars one order may top up (spec: top-up maximum 1000000). */
export const ORDER_MAX_AMOUNT = 1_000_000;

/** Pending orders older than this are closed (reference §4.10: 3 hours). */
export const ORDER_PENDING_LIFETIME_SECONDS = 3 * 60 * 60;

/** A gateway as the administrator sees it. Secret config fields come back masked, never in full. */
export interface PaymentGatewayView {
  id: number;
  uuid: string;
  type: PaymentGatewayType;
  name: string;
  icon: string;
  notify_domain: string;
  fixed_fee: number;
  percent_fee: number;
  currency: PaymentCurrency;
  /** JSON text of the gateway's settings, secret fields replaced by a mask such as `••••9f2c` (at most the last 4 characters, none of a short secret). */
  config: string;
  sort: number;
  enable: boolean;
  created_at: number;
  updated_at: number;
}

/** What `GET /api/user/payment` shows a user: enabled gateways, public fields only. */
export interface UserPaymentView {
  uuid: string;
  name: string;
  icon: string;
  type: PaymentGatewayType;
  fixed_fee: number;
  percent_fee: number;
  currency: PaymentCurrency;
  sort: number;
}

/** 19.99 * 100 is 1998.9999999999998 in floating point: compare with a tolerance, not exactly. */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

const moneyField = (field: string, max: number) =>
  z
    .number(`${field} must be a number`)
    .min(0, `${field} must be at least 0`)
    .max(max, `${field} must be at most ${max}`)
    .refine(hasAtMostTwoDecimals, { message: `${field} must have at most two decimals` });

/**
 * Create and full update. `config` is the gateway's settings as a JSON string (the reference's
 * shape); on update a secret field left masked or empty keeps its stored value.
 */
const gatewayFields = z.object({
  type: z.enum(PAYMENT_GATEWAY_TYPES, `type must be one of ${PAYMENT_GATEWAY_TYPES.join(', ')}`),
  name: z.string('name is required').trim().min(1, 'name is required').max(255, 'name must be at most 255 characters'),
  icon: z.string().trim().max(300, 'icon must be at most 300 characters'),
  notify_domain: z
    .string()
    .trim()
    .max(300, 'notify_domain must be at most 300 characters')
    .refine((value) => value === '' || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(value), {
      message: 'notify_domain must be an http(s) URL such as https://pay.example.com',
    }),
  fixed_fee: moneyField('fixed_fee', 1_000_000),
  // A fraction (0.05 = 5%) with two decimals: the column is decimal(10,2) as in One Hub.
  percent_fee: moneyField('percent_fee', 1),
  currency: z.enum(PAYMENT_CURRENCIES, 'currency must be USD or CNY'),
  config: z.string('config must be a JSON string').max(20_000, 'config must be at most 20000 characters'),
  sort: z.number('sort must be a number').int('sort must be an integer').min(0, 'sort must be at least 0'),
  enable: z.boolean('enable must be true or false'),
});

export const paymentGatewayBody = gatewayFields.extend({
  icon: gatewayFields.shape.icon.default(''),
  notify_domain: gatewayFields.shape.notify_domain.default(''),
  fixed_fee: gatewayFields.shape.fixed_fee.default(0),
  percent_fee: gatewayFields.shape.percent_fee.default(0),
  sort: gatewayFields.shape.sort.default(1),
  enable: gatewayFields.shape.enable.default(true),
});
export type PaymentGatewayBody = z.infer<typeof paymentGatewayBody>;

/**
 * The console's gateway dialog (spec §5: currency and icon required). The API keeps the icon
 * optional, as One Hub's API does, so scripts that create gateways without one keep working.
 */
export const paymentGatewayFormBody = paymentGatewayBody.extend({
  icon: z.string('icon is required').trim().min(1, 'icon is required').max(300, 'icon must be at most 300 characters'),
});

/**
 * `PUT /api/payment/`: with `uuid` every column is replaced (the edit dialog); without it only
 * the fields sent change (the list's enable and sort toggles), so no field has a default here.
 */
export const updatePaymentGatewayBody = gatewayFields.partial().extend({
  id: z.number('id is required').int('id must be an integer').positive('id must be positive'),
  uuid: z.string().optional(),
});
export type UpdatePaymentGatewayBody = z.infer<typeof updatePaymentGatewayBody>;

export const paymentGatewayListQuery = pageQuery.extend({
  type: z.enum(PAYMENT_GATEWAY_TYPES).optional().catch(undefined),
  name: z.string().trim().max(255).optional(),
  uuid: z.string().trim().max(64).optional(),
  currency: z.enum(PAYMENT_CURRENCIES).optional().catch(undefined),
});
export type PaymentGatewayListQuery = z.infer<typeof paymentGatewayListQuery>;

const orderAmountField = z
  .number('amount must be a number')
  .int('amount must be a whole number of US dollars')
  .positive('amount must be positive')
  .max(ORDER_MAX_AMOUNT, `amount must be at most ${ORDER_MAX_AMOUNT}`);

/** `POST /api/user/order`: `amount` in whole US dollars (quota units of QuotaPerUnit). */
export const createOrderBody = z.object({
  uuid: z.string('uuid is required').trim().min(1, 'uuid is required').max(64, 'uuid is too long'),
  amount: orderAmountField,
});
export type CreateOrderBody = z.infer<typeof createOrderBody>;

/** `GET /api/user/order/quote?uuid=&amount=`: what an order would cost, computed by the server. */
export const orderQuoteQuery = z.object({
  uuid: z.string('uuid is required').trim().min(1, 'uuid is required').max(64, 'uuid is too long'),
  amount: z.coerce
    .number('amount must be a number')
    .int('amount must be a whole number of US dollars')
    .positive('amount must be positive')
    .max(ORDER_MAX_AMOUNT, `amount must be at most ${ORDER_MAX_AMOUNT}`),
});
export type OrderQuoteQuery = z.infer<typeof orderQuoteQuery>;

export interface OrderQuote {
  /** Whole US dollars asked for. */
  amount: number;
  /** Multiplier from RechargeDiscount for this amount (1 = none). */
  discount_rate: number;
  /** Fee in the gateway's currency. */
  fee: number;
  /** Money saved by the discount, in the gateway's currency. */
  discount: number;
  /** What the payer is charged, in the gateway's currency. */
  order_amount: number;
  currency: PaymentCurrency;
  /** Quota credited when the payment arrives (amount × QuotaPerUnit). */
  quota: number;
}

/**
 * How the browser pays an order: open a URL (GET, or POST `params` as a form), or show it as a QR
 * code. The numbers are the reference's, kept on the wire for the consoles and scripts that read them.
 */
export const PaymentAction = { openUrl: 1, showQrCode: 2 } as const;
export type PaymentAction = (typeof PaymentAction)[keyof typeof PaymentAction];

/** `POST /api/user/order` answer, by its `type` (a PaymentAction). */
export type PayInstruction =
  | {
      trade_no: string;
      type: typeof PaymentAction.openUrl;
      data: { url: string; method: 'GET' | 'POST'; params?: Record<string, string> };
    }
  | { trade_no: string; type: typeof PaymentAction.showQrCode; data: { url: string } };

export const orderStatusQuery = z.object({
  trade_no: z.string('trade_no is required').trim().min(1, 'trade_no is required').max(50, 'trade_no is too long'),
});

export interface OrderView {
  id: number;
  user_id: number;
  gateway_id: number;
  trade_no: string;
  gateway_no: string;
  amount: number;
  order_amount: number;
  order_currency: PaymentCurrency;
  quota: number;
  fee: number;
  discount: number;
  status: OrderStatus;
  /** The subscription plan the order buys (issue 33); 0 for a top-up. */
  plan_id: number;
  created_at: number;
  updated_at: number;
}

export const orderListQuery = pageQuery.extend({
  user_id: z.coerce.number().int().positive().optional().catch(undefined),
  gateway_id: z.coerce.number().int().positive().optional().catch(undefined),
  trade_no: z.string().trim().max(50).optional(),
  gateway_no: z.string().trim().max(100).optional(),
  status: z.enum(ORDER_STATUSES).optional().catch(undefined),
  start_timestamp: z.coerce.number().int().min(0).optional().catch(undefined),
  end_timestamp: z.coerce.number().int().min(0).optional().catch(undefined),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

/** Fields the gateway list may be ordered by (reference §1.15). */
export const PAYMENT_SORT_FIELDS = ['id', 'uuid', 'name', 'type', 'sort', 'enable', 'created_at'] as const;
/** Fields the order list may be ordered by (reference §1.15). */
export const ORDER_SORT_FIELDS = ['id', 'gateway_id', 'user_id', 'status', 'created_at'] as const;
