import type { BudgetWindowView, SubscriptionView, UserPlanView } from '@one-hub/contracts';

/** The subscription in force, if any (the newest active one). */
export function activeSubscription(plan: UserPlanView | undefined): SubscriptionView | undefined {
  return plan?.subscriptions
    .filter((subscription) => subscription.status === 'active')
    .sort((left, right) => right.expires_at - left.expires_at)[0];
}

/** Every window that limits the caller: their own and their group's, then the active plan's allowance. */
export function userWindows(plan: UserPlanView | undefined): BudgetWindowView[] {
  if (!plan) return [];
  return [...plan.windows, ...(activeSubscription(plan)?.windows ?? [])];
}
