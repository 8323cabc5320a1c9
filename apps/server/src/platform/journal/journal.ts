import { closeSync, fdatasync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomString } from '../crypto.js';
import type { NewLogRow } from '../db/index.js';
import { logRowLine } from './log-line.js';

/**
 * The crash journal: an append-only file in the data folder holding every settled amount and
 * every log row from the moment it exists in memory until the batch that carries it to the
 * database has committed. The relay writes it before it answers, so a process that is killed
 * loses nothing (written data belongs to the kernel); `fsyncIntervalMs` bounds what a power cut
 * can lose. The next start replays what the database does not have yet (replay.ts).
 *
 * One JSON object per line (a log row's texts follow it after tabs):
 * - `{"j":id,"v":1}` opens a segment: the id of the journal that wrote it;
 * - `{"s":seq,"u":user,"t":key,"k":unlimitedKey,"c":channel,"q":charged}` a settlement; with `"r":1`
 *   one the shared (Redis) ledger made, which reaches the database through Redis's batches and
 *   is written at replay only beyond the journal's mark in `journal_marks`; with `"r":2` one made
 *   in a node-local balance lease of the shared ledger (relay/billing/redis-lease-scripts.ts),
 *   written at replay only beyond the journal's lease mark (journal id + `.lease`);
 * - `{"l":seq,"n":[…],"f":stream}\t…` a log row, its numbers in column order and its texts after tabs
 *   (log-line.ts), or `{"l":seq,"r":row}` one that form cannot carry (and every row older journals wrote);
 * - `{"w":seq,"d":[[subject,period,start,quota,requests,tokens]…]}` use a settlement counted on budget
 *   windows (relay/billing/budgets), written by batches of their own;
 * - `{"b":batchId,"i":[seq…]}` a batch about to be written, recorded in `ledger_flushes` with it;
 * - `{"d":batchId}` that batch committed (replay asks the database only about batches without one);
 * - `{"x":[seq…]}` records given up (a row the database refused, reported then).
 */

export interface SettlementRecord {
  userId: number;
  /** The limited key whose balance was charged, else 0. */
  tokenId: number;
  /** The unlimited key whose used quota grows, else 0. */
  unlimitedKeyId: number;
  channelId: number;
  charged: number;
}

/** Use counted on one budget window (`budget_usage`): added to the window that opened at `start`. */
export interface WindowUseRecord {
  subject: string;
  period: string;
  /** The window's start, milliseconds since the epoch. */
  start: number;
  quota: number;
  requests: number;
  tokens: number;
}

export interface JournalOptions {
  directory: string;
  /** How often written lines are forced to the disk: 0 = at every commit. */
  fsyncIntervalMs: number;
  /** A segment this large is closed and a new one begun (default 8 MiB). */
  segmentBytes?: number;
  onError?: (error: unknown) => void;
}

interface Segment {
  name: string;
  fd: number;
  firstSeq: number;
  /** Records in it whose batch has not committed yet. */
  open: number;
  bytes: number;
}

const DEFAULT_SEGMENT_BYTES = 8 * 1024 * 1024;

export class Journal {
  /** Distinguishes this journal's batches from every other's, before and after restarts. */
  readonly id = randomString(12);
  private seq = 0;
  private segmentCount = 0;
  private readonly segments: Segment[] = [];
  /** Settlements of the shared ledger not yet known to be in the database, oldest first. */
  private readonly shared: Array<{ seq: number; segment: Segment }> = [];
  /** Likewise, those made in balance leases (they have a mark of their own). */
  private readonly leased: Array<{ seq: number; segment: Segment }> = [];
  private buffer = '';
  private scheduled = false;
  /** Callers of commitTogether() waiting for this turn's write. */
  private waiting: { promise: Promise<void>; resolve: () => void } | undefined;
  private unsynced = false;
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: JournalOptions) {
    this.startSegment();
    if (options.fsyncIntervalMs > 0) {
      this.timer = setInterval(() => this.syncSoon(), options.fsyncIntervalMs);
      this.timer.unref();
    }
  }

  /** Records a settlement; answers its sequence number. Written at the next commit. */
  settlement(record: SettlementRecord): number {
    const seq = this.nextRecord();
    this.append(
      `{"s":${seq},"u":${record.userId},"t":${record.tokenId},"k":${record.unlimitedKeyId},"c":${record.channelId},"q":${record.charged}}\n`,
    );
    return seq;
  }

  /** A sequence number for a settlement of the shared ledger, taken before Redis makes it. */
  nextSeq(): number {
    return ++this.seq;
  }

  /** Records a shared ledger's settlement made under `seq` (nextSeq), in a lease if `lease`. Written at the next commit. */
  sharedSettlement(seq: number, record: SettlementRecord, lease = false): void {
    const segment = this.active();
    segment.open++;
    (lease ? this.leased : this.shared).push({ seq, segment });
    this.append(
      `{"s":${seq},"u":${record.userId},"t":${record.tokenId},"k":${record.unlimitedKeyId},"c":${record.channelId},"q":${record.charged},"r":${lease ? 2 : 1}}\n`,
    );
  }

  /** Shared settlements (in leases or not) not yet known to be in the database. */
  get sharedOpen(): number {
    return this.shared.length + this.leased.length;
  }

  /** The database holds every shared settlement (with `lease`: made in a lease) up to `mark`. */
  sharedThrough(mark: number, lease = false): void {
    const list = lease ? this.leased : this.shared;
    let count = 0;
    while (count < list.length && (list[count] as { seq: number }).seq <= mark) {
      (list[count] as { segment: Segment }).segment.open--;
      count++;
    }
    if (count === 0) return;
    list.splice(0, count);
    this.dropSettledSegments();
  }

  /** Records one settlement's use of budget windows; answers its sequence number. Written at the next commit. */
  windowUse(records: readonly WindowUseRecord[]): number {
    const seq = this.nextRecord();
    const tuples = records.map((record) =>
      JSON.stringify([record.subject, record.period, record.start, record.quota, record.requests, record.tokens]),
    );
    this.append(`{"w":${seq},"d":[${tuples.join(',')}]}\n`);
    return seq;
  }

  /** Records a log row; answers its sequence number. Written at the next commit. */
  logRow(row: NewLogRow): number {
    const seq = this.nextRecord();
    this.append(logRowLine(seq, row));
    return seq;
  }

  /**
   * Names the batch about to carry `seqs` to the database, and writes it (with everything before
   * it) now: replay asks the database whether that batch id committed.
   */
  batch(batchId: string, seqs: readonly number[]): void {
    this.append(`{"b":${JSON.stringify(batchId)},"i":[${seqs.join(',')}]}\n`);
    this.commit();
  }

  /** The batch `batchId` carrying `seqs` committed: they need no replay. */
  batchWritten(batchId: string, seqs: readonly number[]): void {
    this.append(`{"d":${JSON.stringify(batchId)}}\n`);
    this.settled(seqs);
  }

  /** Records that need no replay: written by a batch, or given up (`abandoned`, reported then). */
  settled(seqs: readonly number[], abandoned = false): void {
    if (seqs.length === 0) return;
    if (abandoned) this.append(`{"x":[${seqs.join(',')}]}\n`);
    for (const seq of seqs) {
      const segment = this.segmentOf(seq);
      if (segment) segment.open--;
    }
    this.dropSettledSegments();
  }

  /**
   * Writes what is buffered at the end of this turn of the event loop, in one write with every
   * other request's of the turn, and resolves after it (group commit): the answer that waits for it
   * is still sent only once its records are written, and a busy server makes a write per turn, not
   * per request. Undefined when nothing is waiting to be written.
   */
  commitTogether(): Promise<void> | undefined {
    if (this.buffer === '' || this.closed) return undefined;
    this.scheduleCommit();
    if (!this.waiting) {
      let resolve = () => {};
      const promise = new Promise<void>((settle) => {
        resolve = settle;
      });
      this.waiting = { promise, resolve };
    }
    return this.waiting.promise;
  }

  /** Writes what is buffered, synchronously: after this returns, a killed process loses none of it. */
  commit(): void {
    if (this.buffer === '' || this.closed) return;
    const text = this.buffer;
    this.buffer = '';
    const segment = this.active();
    try {
      let written = writeSync(segment.fd, text);
      const total = Buffer.byteLength(text);
      // A regular file takes the whole write but for rare cases (a signal, a quota); then the rest.
      if (written < total) {
        const bytes = Buffer.from(text);
        while (written < total) written += writeSync(segment.fd, bytes, written);
      }
      segment.bytes += total;
      if (this.options.fsyncIntervalMs === 0) fdatasyncSync(segment.fd);
      else this.unsynced = true;
    } catch (error) {
      this.options.onError?.(error);
    }
    if (segment.bytes >= (this.options.segmentBytes ?? DEFAULT_SEGMENT_BYTES)) this.startSegment();
  }

  /** Writes and syncs what is pending and closes the files; a journal with nothing open is deleted. */
  close(): void {
    if (this.closed) return;
    this.commit();
    if (this.timer) clearInterval(this.timer);
    this.closed = true;
    for (const segment of this.segments) {
      try {
        fdatasyncSync(segment.fd);
        closeSync(segment.fd);
      } catch (error) {
        this.options.onError?.(error);
      }
      if (segment.open === 0) rmSync(join(this.options.directory, segment.name), { force: true });
    }
    this.segments.length = 0;
  }

  private nextRecord(): number {
    const seq = ++this.seq;
    this.active().open++;
    return seq;
  }

  /** Buffers a line; an explicit commit writes it, or the end of this event-loop turn does. */
  private append(line: string): void {
    this.buffer += line;
    this.scheduleCommit();
  }

  private scheduleCommit(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.endOfTurn);
  }

  private readonly endOfTurn = (): void => {
    this.scheduled = false;
    this.commit();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve();
  };

  private syncSoon(): void {
    if (!this.unsynced) return;
    this.unsynced = false;
    const segment = this.active();
    fdatasync(segment.fd, (error) => {
      if (error && !this.closed) this.options.onError?.(error);
    });
  }

  private active(): Segment {
    return this.segments[this.segments.length - 1] as Segment;
  }

  private startSegment(): void {
    const previous = this.segments[this.segments.length - 1];
    if (previous) fdatasync(previous.fd, () => {});
    const name = `${String(++this.segmentCount).padStart(8, '0')}.jnl`;
    const fd = openSync(join(this.options.directory, name), 'a');
    const header = `{"j":${JSON.stringify(this.id)},"v":1}\n`;
    writeSync(fd, header);
    this.segments.push({ name, fd, firstSeq: this.seq + 1, open: 0, bytes: header.length });
    this.dropSettledSegments();
  }

  private segmentOf(seq: number): Segment | undefined {
    for (let index = this.segments.length - 1; index >= 0; index--) {
      const segment = this.segments[index] as Segment;
      if (segment.firstSeq <= seq) return segment;
    }
    return undefined;
  }

  /** Segments other than the one being written whose every record reached the database. */
  private dropSettledSegments(): void {
    while (this.segments.length > 1 && (this.segments[0] as Segment).open <= 0) {
      const segment = this.segments.shift() as Segment;
      try {
        closeSync(segment.fd);
      } catch {
        // Already closed: nothing to release.
      }
      rmSync(join(this.options.directory, segment.name), { force: true });
    }
  }
}
