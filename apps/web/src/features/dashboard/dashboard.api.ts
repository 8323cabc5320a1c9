import type { DashboardRate, DashboardRow } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { selfQueryKey } from '../../hooks/useSelf.js';
import { api } from '../../lib/api.js';

/**
 * `['user', 'self']` is the key the session guard reads `/api/user/self` under, so the dashboard,
 * the guard and the other account screens share one cached copy of the user.
 */
export const dashboardKeys = {
  self: selfQueryKey,
  usage: ['user', 'dashboard'] as const,
  rate: ['user', 'dashboard', 'rate'] as const,
  setup: ['dashboard', 'setup'] as const,
};

/** How often the rate card asks again: the figure describes the current minute. */
const RATE_REFRESH_MS = 15_000;

/**
 * `GET /api/channel/setup` (administrators): what the getting-started list ticks, in one request,
 * so a cold load of the dashboard stays within the per-address API limit.
 */
export function useSetupFacts(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.setup,
    enabled,
    staleTime: 0,
    queryFn: () => api.get<{ channels: number; tested: boolean; keys: number }>('/api/channel/setup'),
  });
}

/** `GET /api/user/dashboard`: per day and model, today and the seven days before (Go field names). */
export function useDashboardUsage() {
  return useQuery({
    queryKey: dashboardKeys.usage,
    queryFn: async () => (await api.get<DashboardRow[] | null>('/api/user/dashboard')) ?? [],
    staleTime: 30_000,
  });
}

/** `GET /api/user/dashboard/rate`: requests counted against the group's per-minute limit. */
export function useDashboardRate() {
  return useQuery({
    queryKey: dashboardKeys.rate,
    queryFn: () => api.get<DashboardRate>('/api/user/dashboard/rate'),
    refetchInterval: RATE_REFRESH_MS,
    staleTime: 5_000,
  });
}
