import type { RelayFront } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { InFlightRequests } from '../../in-flight.js';
import { bearerCredential, callerOf, keyedRouteOptions } from '../admission.js';
import { bodyObject } from '../body.js';
import { renderTaskError, taskNotFound } from '../task-errors.js';
import { TaskRepository } from '../task-repo.js';
import type { TaskPlatformPoller, TaskRelayDeps } from '../types.js';
import { sunoPoller } from './poller.js';
import { SUNO_ACTIONS, type SunoDeps, type SunoEndpoint, submitSuno } from './submit.js';
import { toSunoDto } from './view.js';

/**
 * The Suno-API compatible surface (reference §2.1): submit music or lyrics, and fetch tasks from
 * the local table (the poller keeps it current). The key comes in `Authorization` and is checked
 * from the headers before a body is read; a caller sees only their own tasks.
 */

/** At most this many ids in one `POST /suno/fetch`. */
const FETCH_LIMIT = 500;

function idsOf(body: unknown): string[] {
  const ids = bodyObject(body).ids;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    throw AppError.badRequest('ids must be a list of task ids');
  }
  if (ids.length > FETCH_LIMIT) throw AppError.badRequest(`ids must hold at most ${FETCH_LIMIT} task ids`);
  return ids as string[];
}

export function installSuno(
  front: RelayFront,
  taskDeps: TaskRelayDeps,
  inFlight: InFlightRequests,
): TaskPlatformPoller {
  const deps: SunoDeps = { ...taskDeps, repo: new TaskRepository(taskDeps.refunds.database) };
  const render = renderTaskError;
  const { authed, submitting } = keyedRouteOptions(deps, render, bearerCredential);
  for (const endpoint of Object.keys(SUNO_ACTIONS) as SunoEndpoint[]) {
    front.route('POST', `/suno/submit/${endpoint}`, submitting, (request, reply) =>
      inFlight.track(submitSuno(deps, request, reply, endpoint), () => reply.raw.destroy()),
    );
  }
  front.route('POST', '/suno/submit/:action', authed, async (request) => {
    const action = String((request.params as { action: string }).action);
    throw AppError.badRequest(`unknown Suno action ${action}: use music or lyrics`);
  });
  front.route('GET', '/suno/fetch/:id', authed, async (request) => {
    const caller = callerOf(request);
    const id = String((request.params as { id: string }).id);
    const row = await deps.repo.findOwned(caller.user.id, 'suno', id);
    if (!row) throw taskNotFound(id);
    return { code: 'success', message: '', data: toSunoDto(row) };
  });
  front.route('POST', '/suno/fetch', authed, async (request) => {
    const caller = callerOf(request);
    const rows = await deps.repo.findOwnedMany(caller.user.id, 'suno', idsOf(request.body));
    return { code: 'success', message: '', data: rows.map(toSunoDto) };
  });
  front.surface('/suno/', render);
  return sunoPoller(deps);
}
