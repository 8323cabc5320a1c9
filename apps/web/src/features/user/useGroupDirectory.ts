import type { UserGroupView } from '@one-hub/contracts';
import { useMemo } from 'react';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { useAllUserGroups } from './user.api.js';

export interface GroupDirectory {
  /** Every group known to the console, by symbol. */
  bySymbol: Record<string, UserGroupView>;
  /** Groups in id order (all of them, enabled or not). */
  list: UserGroupView[];
  loading: boolean;
}

/**
 * Group names for the user list: the site's group map (public groups), completed by the
 * administrator's full list, which also holds private and disabled groups.
 */
export function useGroupDirectory(): GroupDirectory {
  const map = useUserGroupMap();
  const all = useAllUserGroups();
  return useMemo(() => {
    const bySymbol: Record<string, UserGroupView> = { ...(map.data ?? {}) };
    for (const group of all.data ?? []) bySymbol[group.symbol] = group;
    const list = all.data ?? Object.values(map.data ?? {});
    return { bySymbol, list, loading: all.isLoading && map.isLoading };
  }, [map.data, map.isLoading, all.data, all.isLoading]);
}
