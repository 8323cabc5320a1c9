import { nowSeconds } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import { repeatPass } from './repeat.js';

/**
 * The loop both retention jobs share (logs, audit rows): once an interval, rows older than the
 * setting's number of days (0 = keep forever) are deleted in small batches, pausing between them so
 * no statement holds the table for long while requests keep writing. Only the master node runs it.
 */
export interface RetentionJobOptions {
  /** The option holding the number of days, read at each pass so a change applies without a restart. */
  days(): number;
  /** Deletes at most `limit` rows created before `before` (Unix seconds); resolves with how many. */
  deleteBatch(before: number, limit: number): Promise<number>;
  logger: Pick<Logger, 'info' | 'error'>;
  /** What the log lines call the rows ("logs", "audit rows"). */
  rows: string;
  /** Time between two passes (default one hour); the first pass runs one interval after start. */
  intervalMs?: number;
  /** Rows per DELETE statement (default 5 000). */
  batchSize?: number;
  /** Pause between two batches (default 100 ms). */
  pauseMs?: number;
}

/** What each retention job passes through unchanged: where it logs, and its timing (tests shorten it). */
export type RetentionTiming = Pick<RetentionJobOptions, 'logger' | 'intervalMs' | 'batchSize' | 'pauseMs'>;

export interface RetentionJob {
  /** Runs one pass now (or joins the one under way); resolves with how many rows it deleted. */
  runNow(): Promise<number>;
  /** Cancels the timer, ends the pass in progress after its current batch, and waits for it. */
  stop(): Promise<void>;
}

const DAY_SECONDS = 86_400;

export function startRetentionJob(options: RetentionJobOptions): RetentionJob {
  const intervalMs = options.intervalMs ?? 3_600_000;
  const batchSize = options.batchSize ?? 5_000;
  const pauseMs = options.pauseMs ?? 100;
  const { logger } = options;
  let stopped = false;
  let wakePause: (() => void) | undefined;

  const pause = () =>
    new Promise<void>((resolve) => {
      const wait = setTimeout(resolve, pauseMs);
      wait.unref();
      wakePause = () => {
        clearTimeout(wait);
        resolve();
      };
    });

  const deleteExpired = async (): Promise<number> => {
    const days = Math.floor(options.days());
    if (!(days > 0)) return 0;
    // One cutoff for the whole pass, so it ends even while new rows keep ageing past the line.
    const cutoff = nowSeconds() - days * DAY_SECONDS;
    let deleted = 0;
    while (!stopped) {
      const count = await options.deleteBatch(cutoff, batchSize);
      deleted += count;
      if (count < batchSize || stopped) break;
      await pause();
    }
    if (deleted > 0) logger.info({ deleted, days }, `expired ${options.rows} deleted`);
    return deleted;
  };

  const job = repeatPass(intervalMs, deleteExpired, (error) =>
    logger.error({ err: error }, `deleting expired ${options.rows} failed`),
  );

  return {
    runNow: job.runNow,
    async stop() {
      stopped = true;
      void job.cancel();
      wakePause?.();
      await job.current()?.catch(() => undefined);
    },
  };
}
