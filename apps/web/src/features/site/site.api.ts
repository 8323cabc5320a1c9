import type { SiteInfo } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { userGroupMapQueryKey } from '../../hooks/useUserGroupMap.js';
import { api } from '../../lib/api.js';

/** Keys under ['site', …] survive sign-in and sign-out (see AppStateProvider). */
export const siteQueryKeys = {
  status: ['site', 'status'] as const,
  userGroupMap: userGroupMapQueryKey,
};

/** An open console asks again this often, so a long-open tab learns of settings changes and updates. */
const STATUS_REFRESH_MS = 10 * 60 * 1000;

/**
 * `GET /api/status` at page load, again when the tab comes back into view and every ten minutes;
 * SiteBootstrap turns the answer into app state.
 */
export function useStatusQuery() {
  return useQuery({
    queryKey: siteQueryKeys.status,
    queryFn: () => api.get<SiteInfo>('/api/status'),
    staleTime: 0,
    refetchOnWindowFocus: 'always',
    refetchInterval: STATUS_REFRESH_MS,
    retry: 1,
    meta: { silentError: true },
  });
}
