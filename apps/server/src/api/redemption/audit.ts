import type { Executor, RedemptionRow } from '../../platform/db/index.js';
import { changedFields } from '../audit/changes.js';
import { recordAudit } from '../audit/recorder.js';
import type { RowAudit } from '../audit/row-change.js';

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

/** A code renamed or re-priced (`update`), enabled or disabled, or deleted: its fields, never its text or digest. */
export const CODE_AUDIT: RowAudit<RedemptionRow> = {
  resource: 'redemption',
  target: (code) => ({ id: code.id, name: code.name }),
  fields: (code) => ({ name: code.name, quota: Number(code.quota), status: code.status }),
};
