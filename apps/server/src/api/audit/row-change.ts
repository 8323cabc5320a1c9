import type { AuditAction, AuditResource } from '@one-hub/contracts';
import type { Executor } from '../../platform/db/index.js';
import { type ChangeOptions, changedFields } from './changes.js';
import { recordAudit } from './recorder.js';

/** How a resource's rows are recorded: one constant per resource, handed to every recordRowChange. */
export interface RowAudit<Row> {
  resource: AuditResource;
  /** The target's id and readable name, from whichever side of the change exists. */
  target(row: Row): { id: string | number; name: string };
  /** The row as compared (both sides alike); the row itself when absent. */
  fields?(row: Row): Record<string, unknown>;
  options?: ChangeOptions;
}

/**
 * Records one row created (`before` absent), changed, or deleted (`after` absent), naming the
 * fields that differ between its two sides.
 */
export function recordRowChange<Row extends object>(
  executor: Executor,
  audit: RowAudit<Row>,
  action: AuditAction,
  before: Row | undefined,
  after: Row | undefined,
): Promise<void> {
  const subject = after ?? before;
  if (!subject) return Promise.resolve();
  const fieldsOf = (row: Row | undefined) =>
    row && (audit.fields ? audit.fields(row) : ({ ...row } as Record<string, unknown>));
  const target = audit.target(subject);
  return recordAudit(executor, {
    resource: audit.resource,
    action,
    targetId: target.id,
    targetName: target.name,
    changes: changedFields(fieldsOf(before), fieldsOf(after), audit.options),
  });
}
