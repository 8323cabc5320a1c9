import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../platform/cache/index.js';
import { startTaskPollJob, type TaskPollJob } from './task-poll-job.js';

const quietLogger = { warn: () => {}, error: () => {} };
const HOUR = 3_600_000;

/** A poller whose pass waits until the test lets it end, counting the passes that began. */
function gatedPoller(name: string, unfinished: number) {
  let passes = 0;
  let open: () => void = () => {};
  const started = { wait: Promise.resolve() };
  let markStarted: () => void = () => {};
  started.wait = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  return {
    poller: {
      name,
      async poll() {
        passes++;
        markStarted();
        await new Promise<void>((resolve) => {
          open = resolve;
        });
        return unfinished;
      },
    },
    passes: () => passes,
    started: () => started.wait,
    finish: () => open(),
  };
}

describe('the task poll job', () => {
  const jobs: TaskPollJob[] = [];
  afterEach(async () => {
    await Promise.all(jobs.splice(0).map((job) => job.stop()));
  });

  it('lets one node poll at a time through the shared lease, and the other again once it is given back', async () => {
    const cache = createMemoryCache();
    const first = gatedPoller('suno', 3);
    const second = gatedPoller('suno', 5);
    const nodeA = startTaskPollJob({ pollers: [first.poller], cache, intervalMs: HOUR, logger: quietLogger });
    const nodeB = startTaskPollJob({ pollers: [second.poller], cache, intervalMs: HOUR, logger: quietLogger });
    jobs.push(nodeA, nodeB);

    const passA = nodeA.runNow();
    await first.started();
    // Node B finds the lease taken: it skips its pass.
    expect(await nodeB.runNow()).toBe(0);
    expect(second.passes()).toBe(0);
    first.finish();
    expect(await passA).toBe(3);

    const passB = nodeB.runNow();
    await second.started();
    second.finish();
    expect(await passB).toBe(5);
    expect(second.passes()).toBe(1);
    await cache.close();
  });

  it('joins a pass under way instead of starting a second one, and one failing platform does not stop the others', async () => {
    const cache = createMemoryCache();
    const errors: unknown[] = [];
    const working = gatedPoller('kling', 2);
    const job = startTaskPollJob({
      pollers: [
        {
          name: 'midjourney',
          poll: async () => {
            throw new Error('proxy down');
          },
        },
        working.poller,
      ],
      cache,
      intervalMs: HOUR,
      logger: { warn: () => {}, error: (entry: unknown) => errors.push(entry) },
    });
    jobs.push(job);
    const one = job.runNow();
    const two = job.runNow();
    await working.started();
    working.finish();
    expect(await Promise.all([one, two])).toEqual([2, 2]);
    expect(working.passes()).toBe(1);
    expect(errors).toHaveLength(1);
    await cache.close();
  });
});
