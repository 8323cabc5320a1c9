import type { Budget } from '@one-hub/contracts';

/**
 * A user's active subscription plan as the relay draws on it (issue 33). The API keeps it
 * (api/plan/subscription-service.ts, `Services.plans`); the relay reads it through this interface,
 * served from memory and dropped on every change to the user's subscriptions or to a plan.
 */
export interface ActivePlan {
  subscriptionId: number;
  planId: number;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** The allowance per window, subject `sub:<subscriptionId>`. */
  budgets: Budget[];
  /** Models the allowance pays for; empty: every model. */
  models: string[];
  /** Whether requests go on against the balance once the allowance is used up. */
  fallbackToBalance: boolean;
}

export interface ActivePlanReader {
  /** The user's plan while it runs; undefined when they hold none or it has passed its end. */
  activeFor(userId: number): Promise<ActivePlan | undefined>;
  /**
   * The same from memory, without a promise: the plan, null when the user holds none, undefined when
   * it is not in memory yet (then `activeFor` reads it).
   */
  cachedFor(userId: number): ActivePlan | null | undefined;
}
