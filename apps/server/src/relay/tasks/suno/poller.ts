import { objectOf, textOf } from '../body.js';
import { taskPoller } from '../poll-pass.js';
import { applyTaskReportEnds, nowSeconds, type TaskRow, tasksTablePolling } from '../task-repo.js';
import type { TaskPlatformPoller } from '../types.js';
import { callSuno } from './client.js';
import type { SunoDeps } from './submit.js';
import { updateFromSuno } from './view.js';

/**
 * The Suno tasks' poll pass (poll-pass.ts): a channel is asked about its tasks with
 * `POST <base>/suno/fetch {ids}`, at most 500 ids a call.
 */
export function sunoPoller(deps: SunoDeps): TaskPlatformPoller {
  return taskPoller<TaskRow>(deps, {
    ...tasksTablePolling(deps, 'suno'),
    passLimit: 5000,
    batchSize: 500,
    pollBatch: async (channel, batch) => {
      const answer = await callSuno(deps, channel, '/suno/fetch', { ids: batch.map((row) => row.task_id) });
      const body = objectOf(answer.body);
      if (answer.status !== 200 || body.code !== 'success' || !Array.isArray(body.data)) {
        throw new Error(`suno/fetch answered HTTP ${answer.status} ${textOf(body.message)}`);
      }
      const reported = new Map<string, unknown>();
      for (const item of body.data) reported.set(textOf(objectOf(item).task_id), item);
      const now = nowSeconds();
      let ended = 0;
      for (const row of batch) {
        const item = reported.get(row.task_id);
        if (item === undefined) continue;
        if (await applyTaskReportEnds(deps, row, updateFromSuno(row, item, now))) ended++;
      }
      return ended;
    },
  });
}
