import type { UserView } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api.js';

/**
 * `['user', 'self']`: one cached copy of `/api/user/self` shared by the session guard and every
 * account screen, so a change (display name, redeemed quota) shows everywhere at once.
 */
export const selfQueryKey = ['user', 'self'] as const;

/** How long a screen trusts the cached user before asking again when it mounts. */
const SELF_STALE_MS = 10_000;

/**
 * `GET /api/user/self`. A 401 ends the session through the API client; other errors are not
 * toasted, the caller shows them. `T` lets a screen read fields some servers add to the user.
 */
export function useSelf<T extends UserView = UserView>(options: { enabled?: boolean; staleTime?: number } = {}) {
  return useQuery({
    queryKey: selfQueryKey,
    queryFn: () => api.get<T>('/api/user/self'),
    staleTime: options.staleTime ?? SELF_STALE_MS,
    enabled: options.enabled ?? true,
    meta: { silentError: true },
  });
}
