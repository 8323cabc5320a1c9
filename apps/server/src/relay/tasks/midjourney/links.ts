import type { RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import { type LinkSigner, signedMjImagePath } from '../../../platform/signed-links.js';
import { serverAddressOf } from './view.js';

/**
 * The two Midjourney routes that take no key are reached only through links this server signed:
 * the proxy's callback `/mj/notify?channel=<id>&sig=…` (signed over the channel the task went to)
 * and a task's image `/mj/image/<id>?sig=…` (signed over the task id, handed out in task views).
 * The signature is checked from the query, before a body is read; an unsigned or wrongly signed
 * request is refused. Image links do not expire: like the task id itself, they are the owner's to
 * share, and a task view hands out the same link every time.
 */

interface LinkDeps {
  links: LinkSigner;
  options: { get(key: 'ServerAddress'): string };
}

/** The notifyHook the proxy is given for a task on that channel; undefined without ServerAddress. */
export function notifyHookFor(deps: LinkDeps, channelId: number): string | undefined {
  const serverAddress = serverAddressOf(deps.options);
  if (!serverAddress) return undefined;
  return `${serverAddress}/mj/notify?channel=${channelId}&sig=${deps.links.sign('mj-notify', String(channelId))}`;
}

/** How task views name a task's image: through this gateway, signed; undefined without ServerAddress. */
export function imageLinkOf(deps: LinkDeps): ((mjId: string) => string) | undefined {
  const serverAddress = serverAddressOf(deps.options);
  if (!serverAddress) return undefined;
  return (mjId) => `${serverAddress}${signedMjImagePath(deps.links, mjId)}`;
}

function queryText(request: RelayHttpRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The channel a notify's signature names; 401 without a signature, 403 with a wrong one. */
export function signedNotifyChannel(links: LinkSigner, request: RelayHttpRequest): number {
  const channel = queryText(request, 'channel');
  const signature = queryText(request, 'sig');
  if (channel === undefined || signature === undefined) {
    throw AppError.unauthorized('this callback address is not signed; use the notifyHook One Hub gave the proxy');
  }
  if (!/^[1-9]\d{0,9}$/.test(channel) || !links.verify('mj-notify', channel, signature)) {
    throw AppError.forbidden('the callback signature is not valid');
  }
  return Number(channel);
}

/** Refuses an image request whose signature does not match the task id in its path. */
export function checkImageSignature(links: LinkSigner, request: RelayHttpRequest): void {
  const id = (request.params as { id?: string } | undefined)?.id ?? '';
  const signature = queryText(request, 'sig');
  if (signature === undefined) throw AppError.unauthorized('this image address is not signed');
  if (!links.verify('mj-image', id, signature)) throw AppError.forbidden('the image signature is not valid');
}
