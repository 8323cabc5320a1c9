import type { Executor } from '../../platform/db/executor.js';
import { changedFields } from './changes.js';
import { recordAudit } from './recorder.js';

/**
 * A budget window list set on a user (`user:<id>`), a user group (`group:<symbol>`) or a key
 * (`key:<id>`): its own `budget` row, so budgets can be followed across every kind of subject, beside
 * the subject's own row of its other fields. An absent side is an empty list; nothing is written when
 * the list did not change.
 */
export function recordBudgetChange(
  executor: Executor,
  subject: { targetId: string; targetName: string },
  before: readonly unknown[] | undefined,
  after: readonly unknown[] | undefined,
): Promise<void> {
  return recordAudit(executor, {
    resource: 'budget',
    action: 'update',
    targetId: subject.targetId,
    targetName: subject.targetName,
    changes: changedFields({ budgets: before ?? [] }, { budgets: after ?? [] }),
  });
}
