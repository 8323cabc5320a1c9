import {
  type BudgetWindowView,
  outranks,
  type PaymentCurrency,
  type PlanView,
  parseJsonStringList,
  parseStoredBudgets,
  type SubscriberView,
  type SubscriptionStatus,
  type SubscriptionView,
} from '@one-hub/contracts';
import { type PlanRow, type SubscriptionRow, toBoolean, type UserRow } from '../../platform/db/index.js';
import { money } from '../payment/presenter.js';

/** A stored JSON list of model names; anything unreadable is the empty list (every model). */
export const storedModels = parseJsonStringList;

export function toPlanView(row: PlanRow): PlanView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: money(row.price),
    currency: row.currency as PaymentCurrency,
    duration_days: row.duration_days,
    budgets: parseStoredBudgets(row.budgets),
    group: row.group,
    models: storedModels(row.models),
    fallback_to_balance: toBoolean(row.fallback_to_balance),
    enable: toBoolean(row.enable),
    sort: row.sort,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

/** An active row past its end is shown expired: the expiry job may not have run yet. */
export function statusAt(row: Pick<SubscriptionRow, 'status' | 'expires_at'>, nowSeconds: number): SubscriptionStatus {
  return row.status === 'active' && Number(row.expires_at) > nowSeconds ? 'active' : 'expired';
}

export function toSubscriptionView(
  row: SubscriptionRow,
  plan: PlanRow | undefined,
  nowSeconds: number,
  windows: BudgetWindowView[],
): SubscriptionView {
  return {
    id: row.id,
    plan_id: row.plan_id,
    plan_name: plan?.name ?? '',
    status: statusAt(row, nowSeconds),
    started_at: Number(row.started_at),
    expires_at: Number(row.expires_at),
    source: row.source === 'grant' ? 'grant' : 'order',
    fallback_to_balance: plan ? toBoolean(plan.fallback_to_balance) : true,
    models: plan ? storedModels(plan.models) : [],
    windows,
  };
}

/** A running subscription as administrators list it: `endable` when `callerRole` outranks its holder. */
export function toSubscriberView(
  row: SubscriptionRow,
  plan: PlanRow | undefined,
  holder: UserRow | undefined,
  callerRole: number,
): SubscriberView {
  return {
    id: row.id,
    user_id: row.user_id,
    username: holder?.username ?? '',
    display_name: holder?.display_name ?? '',
    plan_id: row.plan_id,
    plan_name: plan?.name ?? '',
    source: row.source === 'grant' ? 'grant' : 'order',
    started_at: Number(row.started_at),
    expires_at: Number(row.expires_at),
    endable: holder !== undefined && outranks(callerRole, holder.role),
  };
}
