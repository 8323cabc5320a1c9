import type { RelayFront } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { InFlightRequests } from '../../in-flight.js';
import { bearerCredential, callerOf, keyedRouteOptions } from '../admission.js';
import { RefreshThrottle } from '../refresh-throttle.js';
import { renderTaskError, taskNotFound } from '../task-errors.js';
import { FINAL_TASK_STATUSES, TaskRepository } from '../task-repo.js';
import type { TaskPlatformPoller, TaskRelayDeps } from '../types.js';
import { klingPoller, refreshKlingTask } from './poller.js';
import { KLING_ACTIONS, type KlingDeps, submitKling } from './submit.js';
import { toKlingAnswer } from './view.js';

/**
 * Kling's official API under `/kling` (reference §2.1, made to work: One Hub registers no Kling
 * provider). Submit text2video or image2video; fetch a task the caller owns. A fetch of an
 * unfinished task asks the channel first (so a client polling faster than the poller sees fresh
 * states), at most once per task every few seconds (RefreshThrottle: fetches in between answer
 * the stored state, so no client can turn its fetches into as many upstream calls); if the
 * channel cannot answer, the stored state is answered.
 */

export function installKling(
  front: RelayFront,
  taskDeps: TaskRelayDeps,
  inFlight: InFlightRequests,
): TaskPlatformPoller {
  const deps: KlingDeps = { ...taskDeps, repo: new TaskRepository(taskDeps.refunds.database) };
  const render = renderTaskError;
  const refreshes = new RefreshThrottle();
  const { authed, submitting } = keyedRouteOptions(deps, render, bearerCredential);
  for (const action of KLING_ACTIONS) {
    front.route('POST', `/kling/v1/videos/${action}`, submitting, (request, reply) =>
      inFlight.track(submitKling(deps, request, reply, action), () => reply.raw.destroy()),
    );
    front.route('GET', `/kling/v1/videos/${action}/:id`, authed, async (request) => {
      const caller = callerOf(request);
      const id = String((request.params as { id: string }).id);
      let row = await deps.repo.findOwned(caller.user.id, 'kling', id);
      if (!row || row.action !== action) throw taskNotFound(id);
      if (!(FINAL_TASK_STATUSES as readonly string[]).includes(row.status) && refreshes.take(`kling:${row.id}`)) {
        try {
          await refreshKlingTask(deps, row);
          row = (await deps.repo.findOwned(caller.user.id, 'kling', id)) ?? row;
        } catch (error) {
          deps.logger.warn({ channel: row.channel_id, detail: String(error) }, 'refreshing a Kling task failed');
        }
      }
      return toKlingAnswer(row, request.id);
    });
  }
  front.route('POST', '/kling/v1/:class/:action', authed, async (request) => {
    const { class: kind, action } = request.params as { class: string; action: string };
    throw AppError.badRequest(
      kind === 'videos'
        ? `unknown Kling action ${action}: use text2video or image2video`
        : `unknown Kling class ${kind}: only videos is supported`,
    );
  });
  front.surface('/kling/', render);
  return klingPoller(deps);
}
