import { pipeline } from 'node:stream/promises';
import type { RelayHttpReply, RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { RouterChannel } from '../../routing/router.js';
import { isPrivateAddressRefusal } from '../../transport/address-guard.js';
import type { MidjourneyDeps } from './deps.js';
import { idParam } from './queries.js';

/**
 * `GET /mj/image/:id`: streams a task's image to the client as it arrives (bounded memory, nothing
 * buffered). Reached through the signed link task views hand out (links.ts, checked before this
 * runs), so image tags can point at it without a key. The address is the one the proxy reported:
 * at the proxy's own origin it is fetched like every other call to the channel (the address root chose);
 * anywhere else it goes through the private-address guard (ChatImageAllowPrivate), so a proxy
 * cannot make the gateway fetch from loopback, private or link-local addresses.
 */

/** For the image's headers, and between two chunks of it. */
const IMAGE_TIMEOUT_MS = 60_000;

interface ImageAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: NodeJS.ReadableStream & { destroy(): void };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

async function fetchImage(
  deps: MidjourneyDeps,
  url: URL,
  channel: RouterChannel | undefined,
  signal: AbortSignal,
): Promise<ImageAnswer> {
  // Through the channel's own outbound proxy, if it has one: the proxy's images live where it does.
  const proxy = channel?.proxy ?? '';
  if (channel && originOf(deps.baseUrlOf(channel)) === url.origin) {
    return deps.upstream.send({ url: url.href, method: 'GET', headers: {}, signal, proxy });
  }
  const answer = await deps.guards.images.request(url, { headers: {}, timeoutMs: IMAGE_TIMEOUT_MS, signal, proxy });
  return { status: answer.statusCode, headers: answer.headers, body: answer.body };
}

export async function streamImage(deps: MidjourneyDeps, request: RelayHttpRequest, reply: RelayHttpReply) {
  const id = idParam(request);
  const row = await deps.repo.findByMjId(id);
  if (!row || row.image_url === '') throw AppError.notFound(`task ${id} has no image`);
  let url: URL | undefined;
  try {
    url = new URL(row.image_url);
  } catch {}
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw AppError.notFound(`task ${id} has no image the gateway can fetch`);
  const abort = new AbortController();
  const response = reply.raw;
  const onClose = () => abort.abort(new Error('the client went away'));
  response.once('close', onClose);
  let upstream: ImageAnswer;
  try {
    upstream = await fetchImage(deps, url, deps.router.byChannelId(row.channel_id), abort.signal);
  } catch (error) {
    response.off('close', onClose);
    if (isPrivateAddressRefusal(error)) {
      throw new AppError('upstream_error', `the image of task ${id} is at a private address, which is not fetched`);
    }
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
