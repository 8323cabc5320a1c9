import { type AuditAction, parseStoredBudgets } from '@one-hub/contracts';
import type { Executor, UserRow } from '../../platform/db/index.js';
import { recordBudgetChange } from '../audit/budgets.js';
import { changedFields } from '../audit/changes.js';
import { recordAudit } from '../audit/recorder.js';

/**
 * What the audit log compares of a user: the fields an administrator sets. Counters, sign-in facts,
 * bound accounts and the balance (its own `balance` rows) are left out; the password and the access
 * token are never among them (a new password is recorded as `{secret: true}`).
 */
function administered(row: UserRow) {
  return {
    username: row.username,
    display_name: row.display_name,
    email: row.email,
    group: row.group,
    role: row.role,
    status: row.status,
  };
}

export interface UserChange {
  action: AuditAction;
  /** Absent for a creation. */
  before?: UserRow | undefined;
  /** Absent for a deletion. */
  after?: UserRow | undefined;
  /** A new password was set: recorded as changed, never its value. */
  passwordSet?: boolean;
}

/**
 * The `user` row of a change, and a `budget` row (`user:<id>`) when the user's own budget windows
 * changed. Call it with the change's transaction, `before` and `after` read inside it.
 */
export async function recordUserChange(executor: Executor, change: UserChange): Promise<void> {
  const { before, after } = change;
  const subject = after ?? before;
  if (!subject) return;
  const changes = changedFields(before && administered(before), after && administered(after));
  if (change.passwordSet) changes.password = { secret: true };
  await recordAudit(executor, {
    resource: 'user',
    action: change.action,
    targetId: subject.id,
    targetName: subject.username,
    changes,
  });
  if (after) {
    await recordBudgetChange(
      executor,
      { targetId: `user:${subject.id}`, targetName: subject.username },
      parseStoredBudgets(before?.budgets ?? ''),
      parseStoredBudgets(after.budgets),
    );
  }
}

/** A balance an administrator changed: the `balance` row with the quota before and after. */
export function recordBalanceChange(
  executor: Executor,
  user: UserRow,
  quota: { before: number; after: number },
  remark: string | undefined,
): Promise<void> {
  const changes = changedFields({ quota: quota.before }, { quota: quota.after });
  if (remark) changes.remark = { after: remark };
  return recordAudit(executor, {
    resource: 'balance',
    action: 'update',
    targetId: user.id,
    targetName: user.username,
    changes,
  });
}
