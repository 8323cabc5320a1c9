import type { ExportFormat, LogStat, LogView, Paged } from '@one-hub/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';

/** The filters of reference §1.13; the last three are for administrators only. Empty means "any". */
export interface LogFilters {
  log_type: number;
  start_timestamp: number;
  end_timestamp: number;
  model_name: string;
  token_name: string;
  request_id: string;
  username: string;
  channel_id: string;
  source_ip: string;
}

export interface LogListParams extends LogFilters {
  page: number;
  size: number;
  order: string;
}

export const logKeys = {
  all: ['log'] as const,
  list: (admin: boolean, params: LogListParams) => ['log', 'list', admin, params] as const,
  stat: (admin: boolean, filters: LogFilters) => ['log', 'stat', admin, filters] as const,
};

/** The query string of the filters a caller may use; 0 and '' are left out (no bound). */
function filterQuery(filters: LogFilters, admin: boolean) {
  const own = {
    start_timestamp: filters.start_timestamp || undefined,
    end_timestamp: filters.end_timestamp || undefined,
    model_name: filters.model_name,
    token_name: filters.token_name,
    request_id: filters.request_id,
  };
  if (!admin) return own;
  return { ...own, username: filters.username, channel_id: filters.channel_id, source_ip: filters.source_ip };
}

/**
 * The server's export of every log the filters match (the list's rows, newest first), for a link:
 * the browser streams the file to disk.
 */
export function logExportHref(admin: boolean, filters: LogFilters, format: ExportFormat): string {
  return withQuery(admin ? '/api/log/export' : '/api/log/self/export', {
    ...filterQuery(filters, admin),
    log_type: filters.log_type || undefined,
    format,
  });
}

/** Everyone's logs (`GET /api/log/`) for administrators, the caller's own (`GET /api/log/self`) otherwise. */
export function useLogs(admin: boolean, params: LogListParams) {
  return useQuery({
    queryKey: logKeys.list(admin, params),
    queryFn: () =>
      api.get<Paged<LogView>>(
        withQuery(admin ? '/api/log/' : '/api/log/self', {
          ...filterQuery(params, admin),
          log_type: params.log_type || undefined,
          page: params.page,
          size: params.size,
          order: params.order,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The consumption total of the current filters, plus the last minute's request and token rates. */
export function useLogStat(admin: boolean, filters: LogFilters) {
  return useQuery({
    queryKey: logKeys.stat(admin, filters),
    queryFn: () =>
      api.get<LogStat>(withQuery(admin ? '/api/log/stat' : '/api/log/self/stat', filterQuery(filters, admin))),
    placeholderData: keepPreviousData,
  });
}
