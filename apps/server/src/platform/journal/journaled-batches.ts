import { randomString } from '../crypto.js';
import type { Journal } from './journal.js';

/** How one kind of amounts is summed and written (the ledger's settlements, budget window use). */
export interface BatchKind<Batch> {
  /** Starts batch ids: `s` settlements, `w` window use. */
  prefix: string;
  empty(): Batch;
  isEmpty(batch: Batch): boolean;
  /**
   * Writes a batch in one transaction; with a batch id, claims it there first (claimBatch), so a
   * batch applied already is not applied again.
   */
  write(batch: Batch, batchId: string | undefined): Promise<void>;
}

/**
 * Amounts settled in memory on their way to the database: summed into a pending batch (and
 * journaled by the caller in the same turn: `journaled`), written one batch at a time. A batch
 * that fails is retried as it was, under the same id, so a failure after the commit (a lost
 * connection) cannot apply it twice; what settles meanwhile waits for the next batch. With a
 * journal, each batch is named in it before it is written and marked written after, so a replay
 * after a crash writes exactly what no committed batch carried.
 */
export class JournaledBatches<Batch> {
  private pending: Batch;
  /** The journal records of the pending amounts. */
  private pendingSeqs: number[] = [];
  /** A batch taken for the database and not known to be written yet. */
  private unwritten: { id: string; batch: Batch; seqs: number[] } | null = null;
  private count = 0;
  private readonly prefix: string;
  /** The write under way, if any. */
  running: Promise<void> | null = null;
  /** Batches written so far: a balance read can tell it raced one. */
  generation = 0;

  constructor(
    private readonly kind: BatchKind<Batch>,
    /** Where subclasses journal what they add (`journaled` takes the record's sequence number). */
    protected readonly journal: Journal | undefined,
    private readonly onError?: (error: unknown) => void,
  ) {
    this.pending = kind.empty();
    this.prefix = `${kind.prefix}-${journal?.id ?? randomString(12)}`;
  }

  /** The batch amounts are added to now. */
  open(): Batch {
    return this.pending;
  }

  /** The journal record (its sequence number) of amounts just added to the open batch. */
  journaled(seq: number): void {
    this.pendingSeqs.push(seq);
  }

  /** What `pick` reads of the amounts not yet in the database (pending, and a batch being written). */
  unflushed(pick: (batch: Batch) => number | undefined): number {
    return (pick(this.pending) ?? 0) + (this.unwritten ? (pick(this.unwritten.batch) ?? 0) : 0);
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
    const retry = this.unwritten !== null;
    let taken = this.unwritten;
    if (!taken) {
      if (this.kind.isEmpty(this.pending)) return;
      taken = { id: `${this.prefix}-${(this.count++).toString(36)}`, batch: this.pending, seqs: this.pendingSeqs };
      this.pending = this.kind.empty();
      this.pendingSeqs = [];
      this.unwritten = taken;
      this.journal?.batch(taken.id, taken.seqs);
    }
    const written = taken;
    this.running = this.kind
      .write(written.batch, this.journal ? written.id : undefined)
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
    if (retry && !this.unwritten && !this.kind.isEmpty(this.pending)) await this.flush();
  }
}
