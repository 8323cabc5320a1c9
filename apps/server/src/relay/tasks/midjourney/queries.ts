import { pipeline } from 'node:stream/promises';
import type { RelayHttpReply, RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { RelayCaller } from '../../access/keys.js';
import type { MidjourneyDeps } from './deps.js';
import { proxyRefusal, proxyUnreachable } from './errors.js';
import { callProxy } from './proxy-client.js';
import { FINAL_STATUSES } from './repo.js';
import { serverAddressOf, toProxyTask } from './view.js';

/**
 * The routes that read tasks: fetch and list-by-condition answer from the local table (the
 * caller's own tasks only), image-seed asks the channel holding the task, the image route streams
 * the stored image through the gateway, and `notify` is the proxy's callback.
 */

/** As the proxy limits it: list-by-condition takes at most this many ids. */
export const LIST_IDS_MAX = 100;

function idParam(request: RelayHttpRequest): string {
  const id = (request.params as { id?: string } | undefined)?.id ?? '';
  if (id === '' || id.length > 191) throw AppError.badRequest('task id is required');
  return id;
}

export async function fetchTask(deps: MidjourneyDeps, caller: RelayCaller, request: RelayHttpRequest) {
  const id = idParam(request);
  const row = await deps.repo.findOwned(caller.user.id, id);
  if (!row) throw AppError.notFound(`task ${id} does not exist`);
  return toProxyTask(row, serverAddressOf(deps.options));
}

export async function listByCondition(deps: MidjourneyDeps, caller: RelayCaller, request: RelayHttpRequest) {
  const ids = (request.body as { ids?: unknown } | null)?.ids;
  if (ids === undefined) return [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id.length > 191)) {
    throw AppError.badRequest('ids must be a list of task ids');
  }
  if (ids.length > LIST_IDS_MAX) throw AppError.badRequest(`ids: at most ${LIST_IDS_MAX} task ids a request`);
  const rows = await deps.repo.findOwnedMany(caller.user.id, [...new Set(ids as string[])]);
  const serverAddress = serverAddressOf(deps.options);
  return rows.map((row) => toProxyTask(row, serverAddress));
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
    throw proxyRefusal(body.code, String(body.description ?? ''), body.result);
  return body;
}

/**
 * Streams a task's image to the client as it arrives (bounded memory, nothing buffered). Open to
 * anyone who knows the task id, as the reference's route is, so image tags can point at it.
 */
export async function streamImage(deps: MidjourneyDeps, request: RelayHttpRequest, reply: RelayHttpReply) {
  const id = idParam(request);
  const row = await deps.repo.findByMjId(id);
  if (!row || row.image_url === '') throw AppError.notFound(`task ${id} has no image`);
  if (!/^https?:\/\//i.test(row.image_url)) throw AppError.notFound(`task ${id} has no image the gateway can fetch`);
  const abort = new AbortController();
  const response = reply.raw;
  const onClose = () => abort.abort(new Error('the client went away'));
  response.once('close', onClose);
  let upstream: Awaited<ReturnType<MidjourneyDeps['upstream']['send']>>;
  try {
    // Through the channel's own outbound proxy, if it has one: the proxy's images live where it does.
    const proxy = deps.router.byChannelId(row.channel_id)?.proxy ?? '';
    upstream = await deps.upstream.send({
      url: row.image_url,
      method: 'GET',
      headers: {},
      signal: abort.signal,
      proxy,
    });
  } catch {
    response.off('close', onClose);
    throw new AppError('upstream_error', `the image of task ${id} could not be fetched`);
  }
  if (upstream.status !== 200) {
    upstream.body.destroy();
    response.off('close', onClose);
    throw new AppError('upstream_error', `the image of task ${id} could not be fetched (HTTP ${upstream.status})`);
  }
  const headers: Record<string, string> = { 'cache-control': 'public, max-age=86400' };
  for (const name of ['content-type', 'content-length']) {
    const value = upstream.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  response.writeHead(200, headers);
  await pipeline(upstream.body, response).catch(() => response.destroy());
  response.off('close', onClose);
}

/**
 * The proxy's callback. Its body is not trusted (anyone can post here): it only names the task,
 * which must be a known unfinished one, and its state is then fetched from the channel holding it
 * with the channel's own key. A forged callback thus costs one lookup and changes nothing the
 * channel does not confirm.
 */
export async function notifyTask(deps: MidjourneyDeps, request: RelayHttpRequest) {
  const id = (request.body as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '' || id.length > 191) throw AppError.badRequest('id is required');
  const row = await deps.repo.findByMjId(id);
  if (!row) throw AppError.notFound(`task ${id} does not exist`);
  if ((FINAL_STATUSES as readonly string[]).includes(row.status))
    return { code: 1, description: 'success', result: id };
  const channel = deps.router.byChannelId(row.channel_id);
  if (!channel)
    throw new AppError('unavailable', `channel ${row.channel_id}, which holds this task, is disabled or gone`);
  const answer = await callProxy(deps, channel, `/mj/task/${encodeURIComponent(id)}/fetch`);
  if (answer.status !== 200 || !answer.body || typeof answer.body !== 'object') {
    throw proxyUnreachable(channel.id, `answered HTTP ${answer.status} for task ${id}`);
  }
  await deps.tracker.apply(row, answer.body);
  return { code: 1, description: 'success', result: id };
}
