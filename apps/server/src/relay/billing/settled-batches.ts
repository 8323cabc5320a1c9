import { randomString } from '../../platform/crypto.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import type { Journal, SettlementRecord } from '../../platform/journal/journal.js';
import { addSettlement, createLedgerWriter, isEmpty, type LedgerDeltas, newDeltas } from './ledger-writer.js';

/**
 * The in-process ledger's settled amounts on their way to the database: added per request (and
 * journaled in the same turn), written as one batch at a time. A batch that fails is retried as it
 * was, under the same id, so a failure after the commit (a lost connection) cannot apply it twice;
 * what settles meanwhile waits for the next batch.
 */
export class SettledBatches {
  private pending: LedgerDeltas = newDeltas();
  /** The journal records of the pending amounts. */
  private pendingSeqs: number[] = [];
  /** A batch taken for the database and not known to be written yet. */
  private unwritten: { id: string; deltas: LedgerDeltas; seqs: number[] } | null = null;
  private count = 0;
  private readonly prefix: string;
  private readonly write: ReturnType<typeof createLedgerWriter>;
  /** The write under way, if any. */
  running: Promise<void> | null = null;
  /** Batches written so far: a balance read can tell it raced one. */
  generation = 0;

  constructor(
    handle: DatabaseHandle,
    private readonly journal: Journal | undefined,
    private readonly onError?: (error: unknown) => void,
  ) {
    this.prefix = `s-${journal?.id ?? randomString(12)}`;
    this.write = createLedgerWriter(handle);
  }

  add(record: SettlementRecord): void {
    addSettlement(this.pending, record);
    // Journaled in the same turn as it is counted: a crash after this line loses nothing.
    if (this.journal) this.pendingSeqs.push(this.journal.settlement(record));
  }

  /** What `pick` reads of the amounts not yet in the database (pending, and a batch being written). */
  unflushed(pick: (deltas: LedgerDeltas) => number | undefined): number {
    return (pick(this.pending) ?? 0) + (this.unwritten ? (pick(this.unwritten.deltas) ?? 0) : 0);
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
    const retry = this.unwritten !== null;
    let batch = this.unwritten;
    if (!batch) {
      if (isEmpty(this.pending)) return;
      batch = { id: `${this.prefix}-${(this.count++).toString(36)}`, deltas: this.pending, seqs: this.pendingSeqs };
      this.pending = newDeltas();
      this.pendingSeqs = [];
      this.unwritten = batch;
      this.journal?.batch(batch.id, batch.seqs);
    }
    const written = batch;
    this.running = this.write(written.deltas, this.journal ? written.id : undefined)
      .then(() => {
        this.unwritten = null;
        this.generation++;
        this.journal?.batchWritten(written.id, written.seqs);
      })
      .catch((error: unknown) => this.onError?.(error))
      .finally(() => {
        this.running = null;
      });
    await this.running;
    // The pending amounts of a retried batch go out now, not a second later.
    if (retry && !this.unwritten && !isEmpty(this.pending)) await this.flush();
  }
}
