import type { Executor, RedemptionRow } from '../../platform/db/index.js';
import { changedFields } from '../audit/changes.js';
import { recordAudit } from '../audit/recorder.js';

/**
 * A batch of new codes is one `redemption` row: the name, the quota, how many and their ids. The
 * codes are bearer secrets, so they are recorded only as `{secret: true}`.
 */
export function recordCodesCreated(
  executor: Executor,
  batch: { name: string; quota: number; ids: readonly number[]; keys: readonly string[] },
): Promise<void> {
  const first = batch.ids[0] ?? 0;
  const last = batch.ids.at(-1) ?? first;
  return recordAudit(executor, {
    resource: 'redemption',
    action: 'create',
    targetId: first === last ? first : `${first}-${last}`,
    targetName: batch.name,
    changes: changedFields(
      undefined,
      { name: batch.name, quota: batch.quota, count: batch.ids.length, ids: batch.ids, keys: batch.keys },
      { secret: ['keys'] },
    ),
  });
}

/** What an administrator changes on a code; never its text or digest. */
function codeFields(row: RedemptionRow) {
  return { name: row.name, quota: Number(row.quota), status: row.status };
}

/** A code renamed or re-priced (`update`), enabled or disabled, or deleted. */
export function recordCodeChange(
  executor: Executor,
  action: 'update' | 'enable' | 'disable' | 'delete',
  before: RedemptionRow,
  after: RedemptionRow | undefined,
): Promise<void> {
  return recordAudit(executor, {
    resource: 'redemption',
    action,
    targetId: before.id,
    targetName: (after ?? before).name,
    changes: changedFields(codeFields(before), after && codeFields(after)),
  });
}
