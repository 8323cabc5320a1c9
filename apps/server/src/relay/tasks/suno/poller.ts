import type { TaskPlatformPoller } from '../../../jobs/task-poll-job.js';
import { ChannelBackoff } from '../backoff.js';
import { applyTaskReport, expireTask, nowSeconds, type TaskRow, taskExpired } from '../task-repo.js';
import type { SunoDeps } from './submit.js';
import { callTaskApi, channelSecret, objectOf, textOf } from './upstream.js';
import { updateFromSuno } from './view.js';

/**
 * One pass over the unfinished Suno tasks: those past the task timeout are failed and refunded;
 * the rest are asked of their channels (`POST <base>/suno/fetch {ids}`, at most 500 ids a call)
 * and updated. A channel that fails is backed off; its tasks wait (and time out if it never comes
 * back). The database is the only state, so a restarted node carries on.
 */

const BATCH = 500;
const PASS_LIMIT = 5000;

export function sunoPoller(deps: SunoDeps, backoff = new ChannelBackoff()): TaskPlatformPoller {
  return {
    name: 'suno',
    async poll() {
      const rows = await deps.repo.unfinished('suno', PASS_LIMIT);
      const byChannel = new Map<number, TaskRow[]>();
      let unfinished = 0;
      for (const row of rows) {
        if (taskExpired(row, deps.timeoutMs)) {
          await expireTask(deps, row, deps.timeoutMs);
          continue;
        }
        unfinished++;
        byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
      }
      for (const [channelId, tasks] of byChannel) {
        if (!backoff.ready(channelId)) continue;
        try {
          unfinished -= await pollChannel(deps, channelId, tasks);
          backoff.succeeded(channelId);
        } catch (error) {
          backoff.failed(channelId);
          deps.logger.warn({ channel: channelId, detail: String(error) }, 'polling Suno tasks failed');
        }
      }
      return unfinished;
    },
  };
}

/** Asks one channel about its tasks; answers how many ended. */
async function pollChannel(deps: SunoDeps, channelId: number, tasks: TaskRow[]): Promise<number> {
  const channel = deps.router.byChannelId(channelId);
  // A disabled or deleted channel cannot be asked: its tasks run into the timeout.
  if (!channel) return 0;
  let ended = 0;
  for (let start = 0; start < tasks.length; start += BATCH) {
    const batch = tasks.slice(start, start + BATCH);
    const answer = await callTaskApi(deps, channel, {
      path: '/suno/fetch',
      authorization: `Bearer ${channelSecret(channel)}`,
      body: { ids: batch.map((row) => row.task_id) },
    });
    const body = objectOf(answer.body);
    if (answer.status !== 200 || body.code !== 'success' || !Array.isArray(body.data)) {
      throw new Error(`suno/fetch answered HTTP ${answer.status} ${textOf(body.message)}`);
    }
    const reported = new Map<string, unknown>();
    for (const item of body.data) reported.set(textOf(objectOf(item).task_id), item);
    const now = nowSeconds();
    for (const row of batch) {
      const item = reported.get(row.task_id);
      if (item === undefined) continue;
      const update = updateFromSuno(row, item, now);
      await applyTaskReport(deps, row, update);
      if (update.status === 'SUCCESS' || update.status === 'FAILURE') ended++;
    }
  }
  return ended;
}
