import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { DbBoolean } from './column-types.js';

/**
 * The tables of money: redemption codes, payment gateways and their orders, subscription plans and
 * subscriptions, and the use of budget windows (the rest of the schema is schema.ts).
 */

export interface RedemptionsTable {
  id: Generated<number>;
  /** The administrator who created the code. */
  user_id: number;
  name: string;
  /** SHA-256 of the code: what redeeming looks it up by. The code itself is only kept encrypted. */
  key_hash: string;
  key_cipher: string;
  status: number;
  quota: number;
  created_time: number;
  redeemed_time: number;
  redeemed_user_id: number;
}

/** Payment gateways (reference `payments`). Money columns are decimal(10,2): strings on PostgreSQL and MySQL. */
export interface PaymentsTable {
  id: Generated<number>;
  type: string;
  uuid: string;
  name: string;
  icon: string;
  notify_domain: string;
  fixed_fee: ColumnType<number | string, string, string>;
  percent_fee: ColumnType<number | string, string, string>;
  currency: string;
  /** The gateway's settings as JSON text; secret fields sealed (api/payment/config.ts). */
  config: string;
  sort: number;
  enable: DbBoolean;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** Orders paid through a gateway (reference `orders`). */
export interface OrdersTable {
  id: Generated<number>;
  user_id: number;
  gateway_id: number;
  trade_no: string;
  gateway_no: string;
  amount: number;
  order_amount: ColumnType<number | string, string, string>;
  order_currency: string;
  quota: number;
  fee: ColumnType<number | string, string, string>;
  discount: ColumnType<number | string, string, string>;
  status: string;
  /** The plan the order buys (0: a top-up). */
  plan_id: Generated<number>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** The use of a subject's current budget window (migration 0020). */
export interface BudgetUsageTable {
  subject: string;
  period: string;
  /** Milliseconds since the epoch. */
  started_at: number;
  quota: number;
  requests: number;
  tokens: number;
  updated_at: number;
}

/** Subscription plans (issue 33). `price` is decimal(10,2) like the payments' fees; JSON lists are text. */
export interface PlansTable {
  id: Generated<number>;
  name: string;
  description: string;
  price: ColumnType<number | string, string, string>;
  currency: string;
  duration_days: number;
  /** JSON list of budget windows (contracts' budgetListSchema). */
  budgets: string;
  group: string;
  /** JSON list of model names; empty: every model. */
  models: string;
  fallback_to_balance: DbBoolean;
  enable: DbBoolean;
  sort: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/**
 * A user's subscriptions to plans: at most one `active` per user, which the unique index on
 * (user_id, active_slot) enforces: an active row's slot is 0, an expired row's its own id.
 */
export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  plan_id: number;
  status: string;
  active_slot: Generated<number>;
  /** Unix seconds. */
  started_at: number;
  expires_at: number;
  /** The group the user was moved into on activation ('' none) and the one they return to on expiry. */
  group: string;
  previous_group: string;
  source: string;
  order_trade_no: string;
  created_at: number;
  updated_at: number;
}

export type RedemptionRow = Selectable<RedemptionsTable>;
export type NewRedemptionRow = Insertable<RedemptionsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type NewPaymentRow = Insertable<PaymentsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;
export type PlanRow = Selectable<PlansTable>;
export type NewPlanRow = Insertable<PlansTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
