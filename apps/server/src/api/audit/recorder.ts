import type { AuditAction, AuditChanges, AuditResource } from '@one-hub/contracts';
import { nowSeconds } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/executor.js';
import { currentAuditScope } from './context.js';

export interface AuditEntry {
  resource: AuditResource;
  action: AuditAction;
  targetId: string | number;
  /** A readable name of the target (a channel's or user's name); '' when it has none. */
  targetName?: string;
  /** From changedFields(); an update that changed nothing is not recorded. */
  changes: AuditChanges;
}

const MAX_NAME = 191;
/** Rows per INSERT: twelve columns each stays far below every database's limit of bound values. */
const ROWS_PER_INSERT = 500;

/**
 * Writes one audit row for a change made through the management API. Call it with the transaction
 * that makes the change, so both land or neither does. Outside an /api request (jobs, the relay, the
 * bot) it records nothing: the audit log is the record of what people did through the API.
 */
export function recordAudit(executor: Executor, entry: AuditEntry): Promise<void> {
  return recordAudits(executor, [entry]);
}

/** recordAudit for the many rows of one bulk change (channels of a tag, prices), a few INSERTs in all. */
export async function recordAudits(executor: Executor, entries: readonly AuditEntry[]): Promise<void> {
  const scope = currentAuditScope();
  const actor = scope?.actor();
  if (!scope || !actor) return;
  const createdAt = nowSeconds();
  const rows = entries
    .filter((entry) => entry.action !== 'update' || Object.keys(entry.changes).length > 0)
    .map((entry) => ({
      created_at: createdAt,
      actor_id: actor.id,
      actor_name: actor.username.slice(0, 64),
      actor_role: actor.role,
      resource: entry.resource,
      action: entry.action,
      target_id: String(entry.targetId).slice(0, 64),
      target_name: (entry.targetName ?? '').slice(0, MAX_NAME),
      changes: JSON.stringify(entry.changes),
      ip: scope.ip.slice(0, 64),
      request_id: scope.requestId.slice(0, 64),
    }));
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await executor
      .insertInto('audit_logs')
      .values(rows.slice(start, start + ROWS_PER_INSERT))
      .execute();
  }
}
