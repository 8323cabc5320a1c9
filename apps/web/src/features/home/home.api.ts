import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

async function fetchText(path: string): Promise<string> {
  const content = await api.get<unknown>(path);
  return typeof content === 'string' ? content : '';
}

/** `GET /api/home_page_content`: markdown, HTML or a URL set by the administrator; '' when unset. */
export function useHomePageContent() {
  return useQuery({
    queryKey: ['site', 'homePageContent'],
    queryFn: () => fetchText('/api/home_page_content'),
    staleTime: 5 * 60_000,
    meta: { silentError: true },
  });
}
