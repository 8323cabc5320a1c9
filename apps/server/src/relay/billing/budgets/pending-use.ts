import type { Journal } from '../../../platform/journal/journal.js';
import { JournaledBatches } from '../../../platform/journal/journaled-batches.js';
import { addMeasures, isZero } from './measures.js';
import type { BudgetUsageStore, WindowDelta } from './usage-store.js';

type WindowBatch = Map<string, WindowDelta>;

/**
 * Use settled on this node and not yet in the database, summed per window, journaled with each
 * settlement and written one batch at a time (platform/journal/journaled-batches.ts), so a node
 * that is killed loses no window use: the next start replays it (billing/journal-replay.ts).
 */
export class PendingUse extends JournaledBatches<WindowBatch> {
  constructor(store: BudgetUsageStore, journal: Journal | undefined, onError?: (error: unknown) => void) {
    super(
      {
        prefix: 'w',
        empty: () => new Map(),
        isEmpty: (batch) => batch.size === 0,
        write: (batch, batchId) => store.add([...batch.values()], batchId),
      },
      journal,
      onError,
    );
  }

  /** One settlement's use of its windows. */
  add(...deltas: WindowDelta[]): void {
    // Per-minute windows (TPM) are not stored, nor a window that never opened, nor no use at all.
    const stored = deltas.filter((delta) => delta.period !== 'minute' && delta.start >= 0 && !isZero(delta));
    if (stored.length === 0) return;
    const batch = this.open();
    for (const delta of stored) {
      const key = `${delta.subject}|${delta.period}|${delta.start}`;
      const pending = batch.get(key);
      if (pending) addMeasures(pending, delta);
      else batch.set(key, { ...delta });
    }
    // Journaled in the same turn as it is counted: a crash after this line loses nothing.
    if (this.journal) this.journaled(this.journal.windowUse(stored));
  }
}
