import type { AuditLogItem, ExportFormat, Paged } from '@one-hub/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Paging } from '../../hooks/listParams.js';
import { api, withQuery } from '../../lib/api.js';

/** The filters of `GET /api/audit/`; '' and 0 mean "any". */
export interface AuditFilters {
  resource: string;
  action: string;
  /** Root only: an administrator's list is always its own actions. */
  actor_id: string;
  target_id: string;
  start_timestamp: number;
  end_timestamp: number;
}

export type AuditListParams = AuditFilters & Paging;

export const auditKeys = {
  all: ['audit'] as const,
  list: (root: boolean, params: AuditListParams) => ['audit', 'list', root, params] as const,
};

/** The filters as query parameters; 0 and '' are left out, the actor filter only for root. */
function filterQuery(filters: AuditFilters, root: boolean) {
  const { resource, action, actor_id, target_id, start_timestamp, end_timestamp } = filters;
  return {
    resource,
    action,
    target_id,
    start_timestamp: start_timestamp || undefined,
    end_timestamp: end_timestamp || undefined,
    ...(root ? { actor_id } : {}),
  };
}

/** The query string of a list request. */
export function auditQuery(params: AuditListParams, root: boolean) {
  return { ...filterQuery(params, root), page: params.page, size: params.size, order: params.order };
}

/** The server's export of every row the filters match, newest first, for a link: the browser streams it to disk. */
export function auditExportHref(root: boolean, filters: AuditFilters, format: ExportFormat): string {
  return withQuery('/api/audit/export', { ...filterQuery(filters, root), format });
}

/** The audit rows the caller may read: every row for root, its own actions for an administrator. */
export function useAuditLogs(root: boolean, params: AuditListParams) {
  return useQuery({
    queryKey: auditKeys.list(root, params),
    queryFn: () => api.get<Paged<AuditLogItem>>(withQuery('/api/audit/', auditQuery(params, root))),
    placeholderData: keepPreviousData,
  });
}
