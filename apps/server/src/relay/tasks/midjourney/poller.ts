import type { TaskPlatformPoller } from '../../../jobs/task-poll-job.js';
import { ChannelBackoff } from '../backoff.js';
import type { MidjourneyDeps } from './deps.js';
import { callProxy } from './proxy-client.js';
import type { MidjourneyRow } from './repo.js';
import type { ProxyTask } from './view.js';

/**
 * One pass over the unfinished Midjourney tasks: those past the task timeout are failed and
 * refunded; the rest are asked of their channels (`POST <base>/mj/task/list-by-condition`, at most
 * 100 ids a call) and updated. A channel that fails is backed off; its tasks wait (and time out
 * if it never comes back). The database is the only state, so a restarted node carries on.
 */

const BATCH = 100;
/** Tasks read a pass; the rest wait for the next one. */
const PASS_LIMIT = 2000;

export function midjourneyPoller(deps: MidjourneyDeps, backoff = new ChannelBackoff()): TaskPlatformPoller {
  return {
    name: 'midjourney',
    async poll() {
      const rows = await deps.repo.unfinished(PASS_LIMIT);
      const now = Date.now();
      const byChannel = new Map<number, MidjourneyRow[]>();
      let unfinished = 0;
      for (const row of rows) {
        if (now - Number(row.submit_time) > deps.timeoutMs) {
          await deps.tracker.expire(row, deps.timeoutMs, now);
          continue;
        }
        unfinished++;
        const list = byChannel.get(row.channel_id) ?? [];
        list.push(row);
        byChannel.set(row.channel_id, list);
      }
      for (const [channelId, tasks] of byChannel) {
        if (!backoff.ready(channelId)) continue;
        try {
          unfinished -= await pollChannel(deps, channelId, tasks);
          backoff.succeeded(channelId);
        } catch (error) {
          backoff.failed(channelId);
          deps.logger.warn({ channel: channelId, detail: String(error) }, 'polling Midjourney tasks failed');
        }
      }
      return unfinished;
    },
  };
}

/** Asks one channel about its tasks; answers how many ended. */
async function pollChannel(deps: MidjourneyDeps, channelId: number, tasks: MidjourneyRow[]): Promise<number> {
  const channel = deps.router.byChannelId(channelId);
  // A disabled or deleted channel cannot be asked: its tasks run into the timeout.
  if (!channel) return 0;
  let ended = 0;
  for (let start = 0; start < tasks.length; start += BATCH) {
    const batch = tasks.slice(start, start + BATCH);
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
    for (const row of batch) {
      const task = reported.get(row.mj_id);
      if (!task) continue;
      await deps.tracker.apply(row, task);
      if (task.status === 'SUCCESS' || task.status === 'FAILURE') ended++;
    }
  }
  return ended;
}
