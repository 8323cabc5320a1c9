import { randomString } from '../../platform/crypto.js';
import { insertWithKeptText } from '../../platform/db/compiled-texts.js';
import { isConnectionError } from '../../platform/db/errors.js';
import type { DatabaseHandle, DialectName, Executor, NewLogRow } from '../../platform/db/index.js';
import { claimBatch } from '../../platform/journal/batches.js';
import type { Journal } from '../../platform/journal/journal.js';
import { addLogsToRollUps } from '../statistics/rollup.js';

export interface LogWriterOptions {
  /** Rows per multi-row INSERT (default 200, at most 1000 to stay under every database's parameter limit). */
  batchSize?: number;
  /** Longest time a row waits before it is written, in milliseconds (default 1000). */
  flushIntervalMs?: number;
  /** Told about every row that will never be written, with how many. */
  onError?: (error: unknown, lostRows: number) => void;
  /** Rows kept in memory while the database refuses writes (default 50 000); the oldest go first. */
  maxPendingRows?: number;
  /** Where rows are made durable before the answers they describe end (journal.ts). */
  journal?: Journal;
}

/** Rows waiting together, with their journal records (none without a journal). */
interface Chunk {
  rows: NewLogRow[];
  seqs: number[];
}

const DEFAULT_BATCH_SIZE = 200;
// 17 columns a row: 1000 rows stay under SQLite's 32 766 bound parameters (PostgreSQL and MySQL allow 65 535).
const MAX_BATCH_SIZE = 1000;
const DEFAULT_FLUSH_INTERVAL_MS = 1000;
const DEFAULT_MAX_PENDING_ROWS = 50_000;

function defaultOnError(error: unknown, lostRows: number): void {
  const reason = error instanceof Error ? error.message : String(error);
  process.emitWarning(`${lostRows} log row(s) could not be written: ${reason}`, 'LogWriterWarning');
}

/**
 * Collects log rows from the request path and writes them in multi-row INSERTs, off that path.
 * Pending rows live in chunks of at most `batchSize`, so taking a batch or dropping the oldest
 * rows never copies the whole queue.
 */
export class LogWriter {
  private readonly batchSize: number;
  private readonly maxPendingRows: number;
  private readonly onError: (error: unknown, lostRows: number) => void;
  private readonly timer: NodeJS.Timeout;
  private chunks: Chunk[] = [];
  private readonly journal: Journal | undefined;
  private readonly batchPrefix: string;
  private batches = 0;
  private pendingRows = 0;
  private draining: Promise<void> | null = null;
  /** Set while the database is unreachable: only the timer and flush() retry, so a full batch does not hammer it. */
  private stalled = false;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly handle: DatabaseHandle,
    options: LogWriterOptions = {},
  ) {
    this.batchSize = Math.min(MAX_BATCH_SIZE, Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE)));
    this.maxPendingRows = Math.max(1, options.maxPendingRows ?? DEFAULT_MAX_PENDING_ROWS);
    this.onError = options.onError ?? defaultOnError;
    this.journal = options.journal;
    this.batchPrefix = `l-${options.journal?.id ?? randomString(12)}`;
    this.timer = setInterval(() => this.onTick(), Math.max(1, options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS));
    // Pending rows must not keep the process alive; shutdown calls close() to write them.
    this.timer.unref();
  }

  /** Rows accepted but not yet written. */
  get pending(): number {
    return this.pendingRows;
  }

  /** Queues one row. Synchronous and never throws: it runs on the relay's hot path. */
  push(row: NewLogRow): void {
    if (this.closed) {
      this.report(new Error('the log writer is closed'), 1);
      return;
    }
    const seq = this.journal?.logRow(row);
    let last = this.chunks.at(-1);
    if (!last || last.rows.length >= this.batchSize) {
      last = { rows: [], seqs: [] };
      this.chunks.push(last);
    }
    last.rows.push(row);
    if (seq !== undefined) last.seqs.push(seq);
    this.pendingRows++;
    this.dropOverflow();
    if (!this.stalled && this.hasFullBatch()) void this.startDrain(false);
  }

  /** Writes everything pending, after any insert already under way. Rows the database cannot take yet stay pending. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    if (this.pendingRows === 0) return;
    await this.startDrain(true);
    // A batch that filled meanwhile may have started its own insert; the caller expects it finished too.
    while (this.draining) await this.draining;
  }

  /** Stops the timer and writes what is pending; rows that still cannot be written are reported lost. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.timer);
    // Late rows pushed while flushing are still written, unless the database is unreachable.
    do await this.flush();
    while (this.pendingRows > 0 && !this.stalled);
    this.closed = true;
    if (this.pendingRows > 0) {
      // Still in the journal (when there is one): the next start writes them.
      const lost = this.pendingRows;
      this.chunks = [];
      this.pendingRows = 0;
      const kept = this.journal ? '; they stay in the journal, and the next start writes them' : '';
      this.report(new Error(`the database was unreachable when the log writer closed${kept}`), lost);
    }
  }

  private onTick(): void {
    if (!this.draining && this.pendingRows > 0) void this.startDrain(true);
  }

  private hasFullBatch(): boolean {
    const first = this.chunks[0];
    return first !== undefined && first.rows.length >= this.batchSize;
  }

  private startDrain(includePartial: boolean): Promise<void> {
    if (this.draining) return this.draining;
    const run = this.drain(includePartial).finally(() => {
      this.draining = null;
      // Rows that filled a batch while this one was being written go out now, not at the next tick.
      if (!this.stalled && !this.closed && this.hasFullBatch()) void this.startDrain(false);
    });
    this.draining = run;
    return run;
  }

  /** Writes the chunks queued when it started (so it ends under steady load); a partial one only if asked. */
  private async drain(includePartial: boolean): Promise<void> {
    let budget = this.chunks.length;
    while (budget-- > 0) {
      const first = this.chunks[0];
      if (!first || (!includePartial && first.rows.length < this.batchSize)) return;
      this.chunks.shift();
      this.pendingRows -= first.rows.length;
      let heldBack: Chunk;
      try {
        heldBack = await this.insertRows(first);
      } catch (error) {
        // insertRows handles database errors; this only catches a bug, and the rows are gone with it.
        this.report(error, first.rows.length);
        this.journal?.settled(first.seqs, true);
        heldBack = { rows: [], seqs: [] };
      }
      this.stalled = heldBack.rows.length > 0;
      if (this.stalled) {
        this.requeue(heldBack);
        return;
      }
    }
  }

  /** Inserts rows, halving a failed batch until the refused rows are isolated; returns the rows to retry later. */
  private async insertRows(chunk: Chunk): Promise<Chunk> {
    const batchId = this.journal ? `${this.batchPrefix}-${(this.batches++).toString(36)}` : undefined;
    if (batchId) this.journal?.batch(batchId, chunk.seqs);
    try {
      await this.handle.db.transaction().execute(async (transaction) => {
        if (batchId && !(await claimBatch(transaction, batchId))) return;
        await insertLogRows(transaction, this.handle.dialect, chunk.rows);
      });
      if (batchId) this.journal?.batchWritten(batchId, chunk.seqs);
      return { rows: [], seqs: [] };
    } catch (error) {
      if (isConnectionError(error)) return chunk;
      if (chunk.rows.length === 1) {
        this.report(error, 1);
        this.journal?.settled(chunk.seqs, true);
        return { rows: [], seqs: [] };
      }
      const middle = Math.ceil(chunk.rows.length / 2);
      const halves = [0, 1].map((half) => ({
        rows: half === 0 ? chunk.rows.slice(0, middle) : chunk.rows.slice(middle),
        seqs: half === 0 ? chunk.seqs.slice(0, middle) : chunk.seqs.slice(middle),
      })) as [Chunk, Chunk];
      const first = await this.insertRows(halves[0]);
      const second = await this.insertRows(halves[1]);
      return { rows: first.rows.concat(second.rows), seqs: first.seqs.concat(second.seqs) };
    }
  }

  /** Puts rows the database could not take back at the front, in their original order. */
  private requeue(held: Chunk): void {
    const chunks: Chunk[] = [];
    for (let start = 0; start < held.rows.length; start += this.batchSize) {
      chunks.push({
        rows: held.rows.slice(start, start + this.batchSize),
        seqs: held.seqs.slice(start, start + this.batchSize),
      });
    }
    this.chunks = chunks.concat(this.chunks);
    this.pendingRows += held.rows.length;
    this.dropOverflow();
  }

  /** Drops whole oldest chunks while too much is pending, so one report covers up to a batch of rows. */
  private dropOverflow(): void {
    let dropped = 0;
    while (this.pendingRows > this.maxPendingRows) {
      const oldest = this.chunks.shift();
      if (!oldest) break;
      this.pendingRows -= oldest.rows.length;
      dropped += oldest.rows.length;
      this.journal?.settled(oldest.seqs, true);
    }
    if (dropped > 0) {
      this.report(
        new Error(`more than ${this.maxPendingRows} log rows were waiting for the database; the oldest were dropped`),
        dropped,
      );
    }
  }

  private report(error: unknown, lostRows: number): void {
    try {
      this.onError(error, lostRows);
    } catch {
      // The callback is the last place to tell anyone; if it fails there is nowhere left to report to.
    }
  }
}

/** Every column of a log row but `id`, in the order the kept INSERT binds them. */
const LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'channel_id',
  'request_time',
  'is_stream',
  'source_ip',
  'metadata',
  'token_id',
  'request_id',
] as const satisfies ReadonlyArray<keyof NewLogRow>;
// The list must name every column a row has: a column added to the table and not here fails the build.
type Unlisted = Exclude<keyof NewLogRow, 'id' | (typeof LOG_COLUMNS)[number]>;
const everyColumnListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyColumnListed;

/** A module function, not an arrow per batch, so V8 keeps its optimised code (connect.ts says why). */
function hasExplicitId(row: NewLogRow): boolean {
  return row.id !== undefined;
}

/**
 * The rows, and their consume totals added into `statistics`, in the caller's transaction: the
 * daily figures never count a log that was not written, nor miss one that was.
 */
export async function insertLogRows(transaction: Executor, dialect: DialectName, rows: NewLogRow[]): Promise<void> {
  const build = (batch: readonly NewLogRow[]) => transaction.insertInto('logs').values(batch as NewLogRow[]);
  // An explicit id (an import keeping the source's): Kysely's own INSERT, with the id column.
  if (rows.some(hasExplicitId)) await build(rows).execute();
  else await insertWithKeptText(transaction, `${dialect}:logs`, LOG_COLUMNS, rows, build);
  await addLogsToRollUps(transaction, dialect, rows);
}
