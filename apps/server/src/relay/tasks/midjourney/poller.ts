import { taskPoller } from '../poll-pass.js';
import type { TaskPlatformPoller } from '../types.js';
import type { MidjourneyDeps } from './deps.js';
import { callProxy } from './proxy-client.js';
import type { MidjourneyRow } from './repo.js';
import type { ProxyTask } from './view.js';

/**
 * The Midjourney tasks' poll pass (poll-pass.ts): a channel is asked about its tasks with
 * `POST <base>/mj/task/list-by-condition {ids}`, at most 100 ids a call; the tracker applies
 * what the proxy reports. Times in the `midjourneys` table are milliseconds.
 */
export function midjourneyPoller(deps: MidjourneyDeps): TaskPlatformPoller {
  return taskPoller<MidjourneyRow>(deps, {
    name: 'midjourney',
    passLimit: 2000,
    batchSize: 100,
    unfinished: (limit) => deps.repo.unfinished(limit),
    channelOf: (row) => row.channel_id,
    expired: (row, now) => now - Number(row.submit_time) > deps.timeoutMs,
    expire: (row, now) => deps.tracker.expire(row, deps.timeoutMs, now),
    pollBatch: async (channel, batch) => {
      const answer = await callProxy(deps, channel, '/mj/task/list-by-condition', {
        ids: batch.map((row) => row.mj_id),
      });
      if (answer.status !== 200 || !Array.isArray(answer.body)) {
        throw new Error(`list-by-condition answered HTTP ${answer.status}`);
      }
      const reported = new Map<string, ProxyTask>();
      for (const task of answer.body as ProxyTask[]) {
        if (task && typeof task === 'object' && typeof task.id === 'string') reported.set(task.id, task);
      }
      let ended = 0;
      for (const row of batch) {
        const task = reported.get(row.mj_id);
        if (!task) continue;
        await deps.tracker.apply(row, task);
        if (task.status === 'SUCCESS' || task.status === 'FAILURE') ended++;
      }
      return ended;
    },
  });
}
