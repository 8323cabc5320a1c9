import type { SystemLogEntry } from '@one-hub/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/** How often the log is read again while following it. */
export const FOLLOW_INTERVAL_MS = 5_000;

/** `POST /api/system_info/log {count}` (root): the node's last `count` log lines, oldest first. */
export function useSystemLog(count: number, follow: boolean) {
  return useQuery({
    queryKey: ['system-info', 'log', count],
    queryFn: () => api.post<SystemLogEntry[]>('/api/system_info/log', { count }),
    placeholderData: keepPreviousData,
    refetchInterval: follow ? FOLLOW_INTERVAL_MS : false,
  });
}
