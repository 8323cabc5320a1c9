import { addMeasures } from './measures.js';
import type { BudgetUsageStore, WindowDelta } from './usage-store.js';

/**
 * Use settled on this node and not yet in the database, summed per window, written one batch at a
 * time. A batch that fails is added back to what settles meanwhile and tried again with the next.
 */
export class PendingUse {
  private pending = new Map<string, WindowDelta>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: BudgetUsageStore,
    private readonly onError?: (error: unknown) => void,
  ) {}

  add(delta: WindowDelta): void {
    // Per-minute windows (TPM) are not stored, nor a window that never opened.
    if (delta.period === 'minute' || delta.start < 0) return;
    const key = `${delta.subject}|${delta.period}|${delta.start}`;
    const pending = this.pending.get(key);
    if (pending) addMeasures(pending, delta);
    else this.pending.set(key, { ...delta });
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.running = this.store
      .add(batch)
      .catch((error: unknown) => {
        for (const delta of batch) this.add(delta);
        this.onError?.(error);
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
