import { type AuditAction, TokenStatus } from '@one-hub/contracts';
import type { Executor, TokenRow } from '../../platform/db/index.js';
import { recordBudgetChange } from '../audit/budgets.js';
import { changedFields } from '../audit/changes.js';
import { recordAudit } from '../audit/recorder.js';
import { toTokenView } from './presenter.js';

/** The key itself is never read for the audit log; use counters and times the relay keeps are not compared. */
const LEFT_OUT = ['key', 'accessed_time', 'used_quota', 'created_time'];

/** As an administrator's view shows it, budgets apart (their own row); a plain object for the comparison. */
function shown(row: TokenRow): Record<string, unknown> {
  const { setting, ...view } = toTokenView(row, '', true);
  const { budgets: _budgets, ...rest } = setting;
  return { ...view, setting: rest };
}

/** A key given to another user is a move; switched on or off, enable or disable; anything else an update. */
function actionOf(before: TokenRow, after: TokenRow): AuditAction {
  if (before.user_id !== after.user_id) return 'move';
  if (before.status === after.status) return 'update';
  if (after.status === TokenStatus.enabled) return 'enable';
  return after.status === TokenStatus.disabled ? 'disable' : 'update';
}

/**
 * An administrator's edit of a key (PUT /api/token/admin): the `token` row, and a `budget` row
 * (`key:<id>`) when the key's budget windows changed. `before` and `after` are read in the change's
 * transaction; a user's edits of their own keys are self-service and not recorded.
 */
export async function recordTokenChange(executor: Executor, before: TokenRow, after: TokenRow): Promise<void> {
  await recordAudit(executor, {
    resource: 'token',
    action: actionOf(before, after),
    targetId: after.id,
    targetName: after.name,
    changes: changedFields(shown(before), shown(after), { ignore: LEFT_OUT }),
  });
  await recordBudgetChange(
    executor,
    { targetId: `key:${after.id}`, targetName: after.name },
    toTokenView(before, '', true).setting.budgets,
    toTokenView(after, '', true).setting.budgets,
  );
}
