import type { BudgetWindowView, SubscriptionView, UserPlanView } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api.js';

/** `['user', 'plan']`: the caller's subscriptions and windows, shared by the dashboard and the top-up page. */
export const userPlanQueryKey = ['user', 'plan'] as const;

/**
 * `GET /api/user/plan`: the caller's subscriptions and every budget window that applies to them,
 * with current use. A failure is not toasted: the screens then simply show no windows.
 */
export function useUserPlan() {
  return useQuery({
    queryKey: userPlanQueryKey,
    queryFn: async () => {
      const plan = await api.get<UserPlanView | null>('/api/user/plan');
      return { subscriptions: plan?.subscriptions ?? [], windows: plan?.windows ?? [] };
    },
    staleTime: 10_000,
    meta: { silentError: true },
  });
}

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
