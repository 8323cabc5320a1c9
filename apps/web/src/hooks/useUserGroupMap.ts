import type { UserGroupView } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api.js';

/** Under ['site', …], so it survives sign-in and sign-out (see AppStateProvider, which reloads it then). */
export const userGroupMapQueryKey = ['site', 'userGroupMap'] as const;

/** `GET /api/user_group_map`: the groups the visitor may see, by symbol. Reloaded on sign-in and sign-out. */
export function useUserGroupMap() {
  return useQuery({
    queryKey: userGroupMapQueryKey,
    queryFn: () => api.get<Record<string, UserGroupView>>('/api/user_group_map'),
    staleTime: 5 * 60_000,
    meta: { silentError: true },
  });
}
