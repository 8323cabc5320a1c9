import type { RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { RelayCaller } from '../../access/keys.js';
import type { MidjourneyDeps } from './deps.js';
import { proxyRefusal, proxyUnreachable } from './errors.js';
import { imageLinkOf } from './links.js';
import { callProxy } from './proxy-client.js';
import { FINAL_STATUSES } from './repo.js';
import { toProxyTask } from './view.js';

/**
 * The routes that read tasks: fetch and list-by-condition answer from the local table (the
 * caller's own tasks only), image-seed asks the channel holding the task, the image route streams
 * the stored image through the gateway, and `notify` is the proxy's callback.
 */

/** As the proxy limits it: list-by-condition takes at most this many ids. */
export const LIST_IDS_MAX = 100;

export function idParam(request: RelayHttpRequest): string {
  const id = (request.params as { id?: string } | undefined)?.id ?? '';
  if (id === '' || id.length > 191) throw AppError.badRequest('task id is required');
  return id;
}

export async function fetchTask(deps: MidjourneyDeps, caller: RelayCaller, request: RelayHttpRequest) {
  const id = idParam(request);
  const row = await deps.repo.findOwned(caller.user.id, id);
  if (!row) throw AppError.notFound(`task ${id} does not exist`);
  return toProxyTask(row, imageLinkOf(deps));
}

export async function listByCondition(deps: MidjourneyDeps, caller: RelayCaller, request: RelayHttpRequest) {
  const ids = (request.body as { ids?: unknown } | null)?.ids;
  if (ids === undefined) return [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id.length > 191)) {
    throw AppError.badRequest('ids must be a list of task ids');
  }
  if (ids.length > LIST_IDS_MAX) throw AppError.badRequest(`ids: at most ${LIST_IDS_MAX} task ids a request`);
  const rows = await deps.repo.findOwnedMany(caller.user.id, [...new Set(ids as string[])]);
  const imageLink = imageLinkOf(deps);
  return rows.map((row) => toProxyTask(row, imageLink));
}

export async function imageSeed(deps: MidjourneyDeps, caller: RelayCaller, request: RelayHttpRequest) {
  const id = idParam(request);
  const row = await deps.repo.findOwned(caller.user.id, id);
  if (!row) throw AppError.notFound(`task ${id} does not exist`);
  const channel = deps.router.byChannelId(row.channel_id);
  if (!channel)
    throw new AppError('unavailable', `channel ${row.channel_id}, which holds this task, is disabled or gone`);
  const answer = await callProxy(deps, channel, `/mj/task/${encodeURIComponent(id)}/image-seed`);
  const body = (answer.body ?? {}) as { code?: unknown; description?: unknown; result?: unknown };
  if (answer.status !== 200) throw proxyUnreachable(channel.id, `answered HTTP ${answer.status}`);
  if (typeof body.code === 'number' && body.code !== 1)
    throw proxyRefusal(body.code, String(body.description ?? ''), body.result, channel);
  return body;
}

/**
 * The proxy's callback, at the address signed for one channel (links.ts; checked before the body
 * was read). Its body is not trusted otherwise: it only names the task, which must be a known
 * unfinished one of that channel, and its state is then fetched from the channel with the
 * channel's own key — at most once per task every few seconds (RefreshThrottle); a callback
 * within that window changes nothing, and the poller still brings the task up to date.
 */
export async function notifyTask(deps: MidjourneyDeps, request: RelayHttpRequest, channelId: number) {
  const id = (request.body as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '' || id.length > 191) throw AppError.badRequest('id is required');
  const row = await deps.repo.findByMjId(id);
  if (!row || row.channel_id !== channelId) throw AppError.notFound(`task ${id} does not exist`);
  const accepted = { code: 1, description: 'success', result: id };
  if ((FINAL_STATUSES as readonly string[]).includes(row.status)) return accepted;
  if (!deps.refreshes.take(`mj:${row.id}`)) return accepted;
  const channel = deps.router.byChannelId(row.channel_id);
  if (!channel)
    throw new AppError('unavailable', `channel ${row.channel_id}, which holds this task, is disabled or gone`);
  const answer = await callProxy(deps, channel, `/mj/task/${encodeURIComponent(id)}/fetch`);
  if (answer.status !== 200 || !answer.body || typeof answer.body !== 'object') {
    throw proxyUnreachable(channel.id, `answered HTTP ${answer.status} for task ${id}`);
  }
  await deps.tracker.apply(row, answer.body);
  return accepted;
}
