import type { SiteInfo } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { userGroupMapQueryKey } from '../../hooks/useUserGroupMap.js';
import { api } from '../../lib/api.js';

/** Keys under ['site', …] survive sign-in and sign-out (see AppStateProvider). */
export const siteQueryKeys = {
  status: ['site', 'status'] as const,
  userGroupMap: userGroupMapQueryKey,
};

/** `GET /api/status`, once per page load; SiteBootstrap turns the answer into app state. */
export function useStatusQuery() {
  return useQuery({
    queryKey: siteQueryKeys.status,
    queryFn: () => api.get<SiteInfo>('/api/status'),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
    meta: { silentError: true },
  });
}
