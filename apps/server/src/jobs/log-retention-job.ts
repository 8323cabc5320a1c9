import type { LogService } from '../api/log/service.js';
import type { OptionService } from '../api/option/service.js';
import { nowSeconds } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import { repeatPass } from './repeat.js';

/**
 * Log retention (`LogRetentionDays`, 0 = keep forever): consume and error logs older than that
 * many days are deleted in small batches, pausing between them so no statement holds the table
 * for long while requests keep writing logs. Top-up, manage and system logs record money moving
 * and stay, as with the manual cleanup; the daily roll-up (`statistics`) is never touched, so the
 * dashboards and the log statistics keep the usage of deleted days. Only the master node runs it.
 */
export interface LogRetentionJobOptions {
  options: Pick<OptionService, 'getNumber'>;
  logs: Pick<LogService, 'deleteExpiredBatch'>;
  logger: Pick<Logger, 'info' | 'error'>;
  /** Time between two passes (default one hour); the first pass runs one interval after start. */
  intervalMs?: number;
  /** Rows per DELETE statement (default 5 000). */
  batchSize?: number;
  /** Pause between two batches (default 100 ms). */
  pauseMs?: number;
}

export interface LogRetentionJob {
  /** Runs one pass now (or joins the one under way); resolves with how many rows it deleted. */
  runNow(): Promise<number>;
  /** Cancels the timer, ends the pass in progress after its current batch, and waits for it. */
  stop(): Promise<void>;
}

const DAY_SECONDS = 86_400;

export function startLogRetentionJob(options: LogRetentionJobOptions): LogRetentionJob {
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
    const days = Math.floor(options.options.getNumber('LogRetentionDays'));
    if (!(days > 0)) return 0;
    // One cutoff for the whole pass, so it ends even while new rows keep ageing past the line.
    const cutoff = nowSeconds() - days * DAY_SECONDS;
    let deleted = 0;
    while (!stopped) {
      const count = await options.logs.deleteExpiredBatch(cutoff, batchSize);
      deleted += count;
      if (count < batchSize || stopped) break;
      await pause();
    }
    if (deleted > 0) logger.info({ deleted, days }, 'expired logs deleted');
    return deleted;
  };

  const job = repeatPass(intervalMs, deleteExpired, (error) =>
    logger.error({ err: error }, 'deleting expired logs failed'),
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
