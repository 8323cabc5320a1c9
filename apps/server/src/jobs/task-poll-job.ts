import type { Cache } from '../platform/cache/index.js';
import { randomHex } from '../platform/crypto.js';
import type { Logger } from '../platform/logger.js';
import type { TaskPlatformPoller } from '../relay/tasks/index.js';
import { repeatPass } from './repeat.js';

/**
 * The poller of unfinished asynchronous tasks (Midjourney, Suno, Kling): on the master node every
 * `intervalMs` it runs each platform's pass, one at a time. A lease in the shared cache lets one
 * node poll at a time even when several are (mis)configured as masters, and a node that dies frees
 * it after `leaseSeconds`. Each platform's pass reads its unfinished tasks from the database, asks
 * their channels in batches, writes what changed, and fails (and refunds) tasks stuck past their
 * timeout; a restart loses nothing because the database is the only state. The pollers and their
 * interface live beside the tasks (relay/tasks/poll-pass.ts, relay/tasks/types.ts).
 */
export interface TaskPollJob {
  /** Runs one pass now (or joins the one under way); answers the tasks still unfinished. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

export function startTaskPollJob(options: {
  pollers: readonly TaskPlatformPoller[];
  cache: Pick<Cache, 'setIfAbsent' | 'deleteIfEquals'>;
  intervalMs: number;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** How long one node's lease lasts when it is not given back (a crash mid-pass). */
  leaseSeconds?: number;
}): TaskPollJob {
  const holder = randomHex(8);
  const leaseSeconds = options.leaseSeconds ?? Math.max(60, Math.ceil((options.intervalMs * 4) / 1000));

  const pollAll = async (): Promise<number> => {
    if (!(await options.cache.setIfAbsent('task-poll-lease', holder, leaseSeconds))) return 0;
    let unfinished = 0;
    try {
      for (const poller of options.pollers) {
        try {
          unfinished += await poller.poll();
        } catch (error) {
          // One platform's outage must not stop the others' tasks.
          options.logger.error({ err: error, platform: poller.name }, 'polling asynchronous tasks failed');
        }
      }
    } finally {
      await options.cache.deleteIfEquals('task-poll-lease', holder);
    }
    return unfinished;
  };
  const job = repeatPass(options.intervalMs, pollAll, (error) =>
    options.logger.error({ err: error }, 'the task poller failed; it runs again at its next interval'),
  );
  return {
    runNow: job.runNow,
    async stop() {
      await job.cancel();
      await job.current();
    },
  };
}
