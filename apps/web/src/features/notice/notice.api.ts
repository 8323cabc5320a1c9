import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/** `GET /api/notice`: the announcement text (markdown), '' when there is none. */
export function useNoticeQuery() {
  return useQuery({
    queryKey: ['site', 'notice'],
    queryFn: async () => {
      const text = await api.get<unknown>('/api/notice');
      return typeof text === 'string' ? text : '';
    },
    staleTime: 5 * 60_000,
    meta: { silentError: true },
  });
}
