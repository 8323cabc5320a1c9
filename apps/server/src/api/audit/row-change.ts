import type { AuditAction, AuditResource } from '@one-hub/contracts';
import type { Executor } from '../../platform/db/index.js';
import { type ChangeOptions, changedFields } from './changes.js';
import { type AuditEntry, recordAudit } from './recorder.js';

/** How a resource's rows are recorded: one constant per resource, handed to every recordRowChange. */
export interface RowAudit<Row> {
  resource: AuditResource;
  /** The target's id and readable name, from whichever side of the change exists. */
  target(row: Row): { id: string | number; name: string };
  /** The row as compared (both sides alike); the row itself when absent. */
  fields?(row: Row): Record<string, unknown>;
  options?: ChangeOptions;
}

/** The audit entry of one row created (`before` absent), changed, or deleted (`after` absent). */
export function rowChangeEntry<Row extends object>(
  audit: RowAudit<Row>,
  action: AuditAction,
  before: Row | undefined,
  after: Row | undefined,
): AuditEntry | undefined {
  const subject = after ?? before;
  if (!subject) return undefined;
  const fieldsOf = (row: Row | undefined) =>
    row && (audit.fields ? audit.fields(row) : ({ ...row } as Record<string, unknown>));
  const target = audit.target(subject);
  return {
    resource: audit.resource,
    action,
    targetId: target.id,
    targetName: target.name,
    changes: changedFields(fieldsOf(before), fieldsOf(after), audit.options),
  };
}

/**
 * Records one row created (`before` absent), changed, or deleted (`after` absent), naming the
 * fields that differ between its two sides.
 */
export async function recordRowChange<Row extends object>(
  executor: Executor,
  audit: RowAudit<Row>,
  action: AuditAction,
  before: Row | undefined,
  after: Row | undefined,
): Promise<void> {
  const entry = rowChangeEntry(audit, action, before, after);
  if (entry) await recordAudit(executor, entry);
}
