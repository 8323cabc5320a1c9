import { AUDIT_ACTIONS, AUDIT_RESOURCES } from '@one-hub/contracts';
import { listSearch, parsePaging, wholeNumber } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import { fromDateInput, toDateInput } from '../../lib/listState.js';
import type { AuditFilters, AuditListParams } from './audit.api.js';

export const emptyAuditFilters: AuditFilters = {
  resource: '',
  action: '',
  actor_id: '',
  target_id: '',
  start_timestamp: 0,
  end_timestamp: 0,
};

const oneOf = (value: string | null, choices: readonly string[]) => (value && choices.includes(value) ? value : '');

/** Reads the list state from the query string, dropping values the server would refuse. */
export function parseAuditListParams(search: URLSearchParams): AuditListParams {
  const actorId = wholeNumber(search.get('actor_id'), 1);
  return {
    resource: oneOf(search.get('resource'), AUDIT_RESOURCES),
    action: oneOf(search.get('action'), AUDIT_ACTIONS),
    actor_id: actorId === null ? '' : String(actorId),
    target_id: search.get('target_id')?.trim().slice(0, 64) ?? '',
    start_timestamp: wholeNumber(search.get('start_timestamp'), 0) ?? 0,
    end_timestamp: wholeNumber(search.get('end_timestamp'), 0) ?? 0,
    ...parsePaging(search, ['id', 'created_at']),
  };
}

/** The audit list state kept in the URL; changing anything but the page goes back to page 1. */
export function useAuditListParams(): [AuditListParams, (changes: Partial<AuditListParams>) => void] {
  return useUrlListParams(parseAuditListParams, listSearch);
}

/** The filter inputs' text; the time bounds as `datetime-local` values. */
export function auditDraft(filters: AuditFilters): Record<string, string> {
  const { start_timestamp, end_timestamp, ...rest } = filters;
  return { ...rest, start: toDateInput(start_timestamp), end: toDateInput(end_timestamp) };
}

/** The filters of the inputs' text, trimmed; empty times are no bound. */
export function auditFromDraft(draft: Record<string, string>): AuditFilters {
  const value = (key: string) => (draft[key] ?? '').trim();
  return {
    resource: value('resource'),
    action: value('action'),
    actor_id: value('actor_id'),
    target_id: value('target_id'),
    start_timestamp: fromDateInput(value('start')),
    end_timestamp: fromDateInput(value('end')),
  };
}
