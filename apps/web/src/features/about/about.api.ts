import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/** `GET /api/about`: markdown, HTML or a URL set by the administrator; '' when unset. */
export function useAboutContent() {
  return useQuery({
    queryKey: ['site', 'about'],
    queryFn: async () => {
      const content = await api.get<unknown>('/api/about');
      return typeof content === 'string' ? content : '';
    },
    staleTime: 5 * 60_000,
    meta: { silentError: true },
  });
}
