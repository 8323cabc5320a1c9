import type { AuditAction, AuditChanges, AuditLogItem, AuditResource } from '@one-hub/contracts';
import type { Selectable } from 'kysely';
import type { AuditLogsTable } from '../../platform/db/index.js';

export type AuditRow = Selectable<AuditLogsTable>;

/** A stored `changes` text that is not a JSON object (a hand-edited row) reads as no change. */
function parseChanges(text: string): AuditChanges {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as AuditChanges) : {};
  } catch {
    return {};
  }
}

/** One audit row as the API answers it: `changes` parsed, numbers as numbers on every database. */
export function toAuditLogItem(row: AuditRow): AuditLogItem {
  return {
    id: Number(row.id),
    created_at: Number(row.created_at),
    actor_id: Number(row.actor_id),
    actor_name: row.actor_name,
    actor_role: Number(row.actor_role),
    resource: row.resource as AuditResource,
    action: row.action as AuditAction,
    target_id: row.target_id,
    target_name: row.target_name,
    changes: parseChanges(row.changes),
    ip: row.ip,
    request_id: row.request_id,
  };
}
