import type { Executor } from '../../platform/db/index.js';
import { changedFields } from './changes.js';
import { recordAudit } from './recorder.js';

/**
 * A budget window list set on a user (`user:<id>`), a user group (`group:<symbol>`) or a key
 * (`key:<id>`), recorded as its own `budget` row so a reader finds every budget change in one place.
 * An absent side is an empty list; a list that did not change writes nothing.
 */
export function recordBudgetChange(
  executor: Executor,
  target: { id: string; name: string },
  before: readonly unknown[] | undefined,
  after: readonly unknown[] | undefined,
): Promise<void> {
  return recordAudit(executor, {
    resource: 'budget',
    action: 'update',
    targetId: target.id,
    targetName: target.name,
    changes: changedFields({ budgets: before ?? [] }, { budgets: after ?? [] }),
  });
}
