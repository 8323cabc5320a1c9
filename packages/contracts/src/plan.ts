import { z } from 'zod';
import { type BudgetWindowView, budgetListSchema } from './budget.js';
import { keywordPageQuery, pageQuery } from './paging.js';
import { hasAtMostTwoDecimals, PAYMENT_CURRENCIES, type PaymentCurrency } from './payment.js';

/**
 * Subscription plans (issue 33): a price for a duration, buying an allowance per window (the
 * budget shape), drawn on before the balance while the plan is active.
 */
export const PLAN_MAX_DAYS = 3650;

const planFields = {
  name: z.string('name is required').trim().min(1, 'name is required').max(50, 'name must be at most 50 characters'),
  description: z.string('description must be a string').trim().max(500, 'description is too long').default(''),
  /** In `currency`, two decimals at most. */
  price: z
    .number('price must be a number')
    .min(0, 'price must be at least 0')
    .max(1_000_000, 'price is too large')
    .refine(hasAtMostTwoDecimals, 'price may have at most two decimals'),
  currency: z.enum(PAYMENT_CURRENCIES, 'currency must be USD or CNY').default('USD'),
  duration_days: z
    .number('duration_days must be a number')
    .int('duration_days must be a whole number of days')
    .min(1, 'duration_days must be at least 1')
    .max(PLAN_MAX_DAYS, `duration_days must be at most ${PLAN_MAX_DAYS}`),
  /** The allowance per window; at least one. */
  budgets: budgetListSchema.refine((budgets) => budgets.length > 0, 'a plan needs at least one budget window'),
  /** The group a subscriber is moved into while the plan is active; '' keeps the user's group. */
  group: z.string('group must be a string').trim().max(50, 'group must be at most 50 characters').default(''),
  /** Models the allowance pays for; empty: every model. */
  models: z.array(z.string().trim().min(1).max(200), 'models must be a list of names').max(1000).default([]),
  /** When the allowance is used up, whether requests go on against the balance (else they are refused). */
  fallback_to_balance: z.boolean('fallback_to_balance must be true or false').default(true),
  enable: z.boolean('enable must be true or false').default(true),
  sort: z.number('sort must be a number').int('sort must be an integer').default(0),
};

export const createPlanBody = z.object(planFields);
export type CreatePlanBody = z.infer<typeof createPlanBody>;

export const updatePlanBody = z.object({
  id: z.number('id is required').int().positive('id must be positive'),
  ...planFields,
});
export type UpdatePlanBody = z.infer<typeof updatePlanBody>;

export interface PlanView {
  id: number;
  name: string;
  description: string;
  price: number;
  currency: PaymentCurrency;
  duration_days: number;
  budgets: z.output<typeof budgetListSchema>;
  group: string;
  models: string[];
  fallback_to_balance: boolean;
  enable: boolean;
  sort: number;
  created_at: number;
  updated_at: number;
}

/** `GET /api/plan/`: the administrators' paged list; `keyword` is a name prefix, the default order `-sort`. */
export const PLAN_SORT_FIELDS = ['id', 'name', 'price', 'duration_days', 'sort', 'enable', 'created_at'] as const;
export type PlanSortField = (typeof PLAN_SORT_FIELDS)[number];
export const planListQuery = keywordPageQuery;
export type PlanListQuery = z.infer<typeof planListQuery>;

/** `POST /api/user/plan/order`: buy or renew `plan_id` through the gateway `uuid`. */
export const planOrderBody = z.object({
  plan_id: z.number('plan_id is required').int().positive('plan_id must be positive'),
  uuid: z.string('uuid is required').trim().min(1, 'uuid is required'),
});
export type PlanOrderBody = z.infer<typeof planOrderBody>;

/** `POST /api/plan/grant`: an administrator gives a plan (or one more period of it) to a user. */
export const grantPlanBody = z.object({
  user_id: z.number('user_id is required').int().positive('user_id must be positive'),
  plan_id: z.number('plan_id is required').int().positive('plan_id must be positive'),
});
export type GrantPlanBody = z.infer<typeof grantPlanBody>;

export const SUBSCRIPTION_STATUSES = ['active', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** One of a user's subscriptions with its windows (`GET /api/user/plan`). */
export interface SubscriptionView {
  id: number;
  plan_id: number;
  plan_name: string;
  status: SubscriptionStatus;
  started_at: number;
  expires_at: number;
  /** 'order' (bought) or 'grant' (given by an administrator). */
  source: 'order' | 'grant';
  fallback_to_balance: boolean;
  models: string[];
  windows: BudgetWindowView[];
}

/** `GET /api/user/plan`: the caller's subscriptions and every budget window that applies to them. */
export interface UserPlanView {
  subscriptions: SubscriptionView[];
  /** The caller's own windows: user and group budgets, with current use. */
  windows: BudgetWindowView[];
}

/**
 * `GET /api/plan/subscriptions` (administrators): the subscriptions running now, newest first by
 * default; `plan_id` narrows them to one plan's.
 */
export const SUBSCRIPTION_SORT_FIELDS = ['id', 'started_at', 'expires_at'] as const;
export const subscriptionListQuery = pageQuery.extend({
  plan_id: z.coerce
    .number('plan_id must be a number')
    .int('plan_id must be an integer')
    .positive('plan_id must be positive')
    .optional(),
});
export type SubscriptionListQuery = z.infer<typeof subscriptionListQuery>;

/** One running subscription with who holds it, as administrators list them. */
export interface SubscriberView {
  id: number;
  user_id: number;
  username: string;
  display_name: string;
  plan_id: number;
  plan_name: string;
  source: 'order' | 'grant';
  started_at: number;
  expires_at: number;
  /** The caller outranks the holder, so it may end the subscription (`POST /api/plan/subscription/:id/end`). */
  endable: boolean;
}
