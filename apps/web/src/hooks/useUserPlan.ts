import type { UserPlanView } from '@one-hub/contracts';
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
