import type { TaskPlatformPoller } from '../../../jobs/task-poll-job.js';
import { ChannelBackoff } from '../backoff.js';
import { callTaskApi, objectOf, textOf } from '../suno/upstream.js';
import { applyTaskReport, expireTask, nowSeconds, type TaskRow, taskExpired } from '../task-repo.js';
import { type KlingDeps, klingAuthorizationOf } from './submit.js';
import { updateFromKling } from './view.js';

/**
 * One pass over the unfinished Kling tasks: those past the task timeout are failed and refunded;
 * the rest are asked one by one (`GET <base>/v1/videos/<action>/<task_id>`: Kling's API has no
 * batch query), channel by channel. A channel that fails is backed off for the rest of the pass
 * and after it; its tasks wait (and time out if it never comes back).
 */

const PASS_LIMIT = 1000;

export function klingPoller(deps: KlingDeps, backoff = new ChannelBackoff()): TaskPlatformPoller {
  return {
    name: 'kling',
    async poll() {
      const rows = await deps.repo.unfinished('kling', PASS_LIMIT);
      let unfinished = 0;
      for (const row of rows) {
        if (taskExpired(row, deps.timeoutMs)) {
          await expireTask(deps, row, deps.timeoutMs);
          continue;
        }
        unfinished++;
        if (!backoff.ready(row.channel_id)) continue;
        try {
          if (await refreshKlingTask(deps, row)) unfinished--;
          backoff.succeeded(row.channel_id);
        } catch (error) {
          backoff.failed(row.channel_id);
          deps.logger.warn({ channel: row.channel_id, detail: String(error) }, 'polling a Kling task failed');
        }
      }
      return unfinished;
    },
  };
}

/** Asks the task's channel about it and records the answer; true when the task has ended. */
export async function refreshKlingTask(deps: KlingDeps, row: TaskRow): Promise<boolean> {
  const channel = deps.router.byChannelId(row.channel_id);
  // A disabled or deleted channel cannot be asked: the task runs into the timeout.
  if (!channel) return false;
  const answer = await callTaskApi(deps, channel, {
    path: `/v1/videos/${row.action}/${encodeURIComponent(row.task_id)}`,
    authorization: await klingAuthorizationOf(channel),
  });
  const body = objectOf(answer.body);
  if (answer.status !== 200 || body.code !== 0) {
    throw new Error(`Kling answered HTTP ${answer.status} ${textOf(body.message)}`);
  }
  const update = updateFromKling(row, body.data, nowSeconds());
  await applyTaskReport(deps, row, update);
  return update.status === 'SUCCESS' || update.status === 'FAILURE';
}
