import type { RouterChannel } from '../../routing/router.js';
import { objectOf, textOf } from '../body.js';
import { taskPoller } from '../poll-pass.js';
import { applyTaskReportEnds, nowSeconds, type TaskRow, tasksTablePolling } from '../task-repo.js';
import type { TaskPlatformPoller } from '../types.js';
import { callKling } from './client.js';
import type { KlingDeps } from './submit.js';
import { updateFromKling } from './view.js';

/**
 * The Kling tasks' poll pass (poll-pass.ts): Kling's API has no batch query, so each task is asked
 * on its own (`GET <base>/v1/videos/<action>/<task_id>`), channel by channel; a channel that fails
 * is backed off for the rest of the pass and after it.
 */
export function klingPoller(deps: KlingDeps): TaskPlatformPoller {
  return taskPoller<TaskRow>(deps, {
    ...tasksTablePolling(deps, 'kling'),
    passLimit: 1000,
    batchSize: 1,
    pollBatch: async (channel, batch) => {
      let ended = 0;
      for (const row of batch) if (await askKling(deps, channel, row)) ended++;
      return ended;
    },
  });
}

/** Asks the task's channel about it and records the answer; true when the task has ended. */
async function askKling(deps: KlingDeps, channel: RouterChannel, row: TaskRow): Promise<boolean> {
  const answer = await callKling(deps, channel, `/v1/videos/${row.action}/${encodeURIComponent(row.task_id)}`);
  const body = objectOf(answer.body);
  if (answer.status !== 200 || body.code !== 0) {
    throw new Error(`Kling answered HTTP ${answer.status} ${textOf(body.message)}`);
  }
  return applyTaskReportEnds(deps, row, updateFromKling(row, body.data, nowSeconds()));
}

/** A fetch's refresh of one task, on the channel that holds it (a disabled or deleted one cannot be asked). */
export async function refreshKlingTask(deps: KlingDeps, row: TaskRow): Promise<boolean> {
  const channel = deps.router.byChannelId(row.channel_id);
  return channel ? askKling(deps, channel, row) : false;
}
