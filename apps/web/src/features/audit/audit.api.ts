import type { AuditLogItem, Paged } from '@one-hub/contracts';
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

/** The query string of a list request; 0 and '' are left out, the actor filter only for root. */
export function auditQuery(params: AuditListParams, root: boolean) {
  const { actor_id, start_timestamp, end_timestamp, ...rest } = params;
  return {
    ...rest,
    start_timestamp: start_timestamp || undefined,
    end_timestamp: end_timestamp || undefined,
    ...(root ? { actor_id } : {}),
  };
}

/** The audit rows the caller may read: every row for root, its own actions for an administrator. */
export function useAuditLogs(root: boolean, params: AuditListParams) {
  return useQuery({
    queryKey: auditKeys.list(root, params),
    queryFn: () => api.get<Paged<AuditLogItem>>(withQuery('/api/audit/', auditQuery(params, root))),
    placeholderData: keepPreviousData,
  });
}
