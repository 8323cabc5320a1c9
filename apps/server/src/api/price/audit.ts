import type { PriceView, SyncMode, SyncPricesResult } from '@one-hub/contracts';
import type { Executor } from '../../platform/db/index.js';
import { changedFields } from '../audit/changes.js';
import { type AuditEntry, recordAudit, recordAudits } from '../audit/recorder.js';
import { type RowAudit, recordRowChange, rowChangeEntry } from '../audit/row-change.js';

/** A price's audit rows: its model is both the target's id and its name. */
const PRICE_AUDIT: RowAudit<PriceView> = {
  resource: 'price',
  target: (price) => ({ id: price.model, name: price.model }),
};

/**
 * One audit row per model whose stored price differs between `before` and `after` (both read in the
 * change's transaction): a creation, an update naming the changed fields, or a deletion.
 */
export async function recordPriceChanges(
  executor: Executor,
  before: ReadonlyMap<string, PriceView>,
  after: ReadonlyMap<string, PriceView>,
): Promise<void> {
  const entries: AuditEntry[] = [];
  for (const model of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(model);
    const next = after.get(model);
    const entry = rowChangeEntry(PRICE_AUDIT, !old ? 'create' : !next ? 'delete' : 'update', old, next);
    if (entry) entries.push(entry);
  }
  await recordAudits(executor, entries);
}

/** A renamed price: one update row under the old name, with the new name among the changed fields. */
export function recordPriceRename(executor: Executor, before: PriceView, after: PriceView): Promise<void> {
  const underOldName = { ...PRICE_AUDIT, target: () => ({ id: before.model, name: before.model }) };
  return recordRowChange(executor, underOldName, 'update', before, after);
}

/**
 * A synchronisation applies a whole list (hundreds of models): one summary row with the mode and
 * the counts; a synchronisation that changed nothing writes nothing.
 */
export function recordPriceSync(executor: Executor, mode: SyncMode, result: SyncPricesResult): Promise<void> {
  const counts = Object.entries(result).filter(([, count]) => count > 0);
  return recordAudit(executor, {
    resource: 'price',
    action: 'update',
    targetId: 'sync',
    targetName: `sync (${mode})`,
    changes: counts.length === 0 ? {} : changedFields(undefined, { mode, ...Object.fromEntries(counts) }),
  });
}
