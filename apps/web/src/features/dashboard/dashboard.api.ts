import type { ChannelView, DashboardRate, DashboardRow, Paged, TokenView } from '@one-hub/contracts';
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

/** How many channels are looked at for a tested one: the list shows only on a new installation. */
const SETUP_CHANNELS_READ = 100;

/**
 * What the getting-started list ticks, for an administrator: the installation's channels (and
 * whether one was tested) and their own keys. Read again when the page is shown.
 */
export function useSetupFacts(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.setup,
    enabled,
    staleTime: 0,
    queryFn: async () => {
      const [channels, keys] = await Promise.all([
        api.get<Paged<ChannelView>>(`/api/channel/?page=1&size=${SETUP_CHANNELS_READ}&filter_tag=3`),
        api.get<Paged<TokenView>>('/api/token/?page=1&size=1'),
      ]);
      return {
        channels: channels.total_count,
        tested: channels.data.some((channel) => channel.test_time > 0),
        keys: keys.total_count,
      };
    },
  });
}

/** How often the rate card asks again: the figure describes the current minute. */
const RATE_REFRESH_MS = 15_000;

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
