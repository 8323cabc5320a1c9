import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { LogType } from '@one-hub/contracts';
import { blankLogRow, fitLogColumn } from '../../domain/log-rows.js';
import { bodyUnread } from '../../http/errors.js';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import { AppError } from '../../platform/errors.js';
import { enterLimits } from '../access/admission.js';
import type { RelayCaller } from '../access/keys.js';
import type { RelayDeps } from '../exchange/types.js';
import type { RouterChannel } from '../routing/router.js';
import type { SentRequest, UpstreamResponse } from '../transport/executor.js';
import { checkRawChannelType, rawTarget, splitRequestUrl } from './target.js';

/**
 * OpenAI's stateful APIs passed through as they are (reference §2.1): only on the channel the
 * caller names with `sk-…#<id>`, an OpenAI or Azure one. The caller's key is checked from the
 * headers before any of the body is read; the body then goes to the upstream as it arrives and the
 * answer (JSON, file bytes, server-sent events) comes back the same way, so a large upload or
 * download takes bounded memory. Nothing is billed: each request leaves a consume log of quota 0.
 */

/** The consume log's content: the reference's text, like the other log texts, and the path. */
export const RAW_LOG_PREFIX = '中继:';

export type RawDeps = Pick<
  RelayDeps,
  | 'keys'
  | 'upstream'
  | 'router'
  | 'groups'
  | 'limiter'
  | 'concurrency'
  | 'options'
  | 'baseUrlOf'
  | 'writeLog'
  | 'logger'
> &
  Partial<Pick<RelayDeps, 'observer'>>;

const METHODS = new Set(['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD']);
/** What of the client's request the upstream gets; its credentials and its OpenAI account headers stay here. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'content-length', 'accept', 'openai-beta'];
/** What of the upstream's answer the client gets; its account, rate-limit and connection headers stay there. */
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-disposition',
  'content-encoding',
  'cache-control',
  'etag',
  'last-modified',
  'retry-after',
  'openai-version',
  'openai-processing-ms',
];

export function needsChannel(): AppError {
  return AppError.forbidden('this endpoint needs a channel: use sk-…#<channel id> (an administrator key)');
}

/**
 * The channel the caller named: `#<id>`, or `#<id>#ignore` (which other routes ignore but a
 * pass-through uses, as the reference does). The directive was checked (administrators only)
 * when the key was.
 */
export function namedChannelId(caller: RelayCaller, authorization: string | undefined): number | undefined {
  if (caller.forcedChannelId !== undefined) return caller.forcedChannelId;
  const ignored = /#(\d+)#ignore\s*$/.exec(authorization ?? '');
  return ignored ? Number(ignored[1]) : undefined;
}

/** The named channel, enabled, of a type that serves these APIs; else the refusal. */
export function rawChannel(deps: Pick<RawDeps, 'router'>, caller: RelayCaller, request: RelayHttpRequest) {
  const id = namedChannelId(caller, request.headers.authorization);
  if (id === undefined) throw needsChannel();
  const channel = deps.router.byChannelId(id);
  if (!channel) throw AppError.forbidden(`channel ${id} does not exist or is disabled`);
  checkRawChannelType(channel, splitRequestUrl(request.url).path);
  return channel;
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function upstreamHeaders(channel: RouterChannel, incoming: IncomingHttpHeaders, auth: Record<string, string>) {
  const headers: Record<string, string> = { ...channel.model_headers };
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = incoming[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { ...headers, ...auth };
}

function clientHeaders(upstream: UpstreamResponse, keepAlive: boolean): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  if (String(headers['content-type'] ?? '').startsWith('text/event-stream')) headers['x-accel-buffering'] = 'no';
  // The upstream answered before the client's whole body came: the rest is not read.
  if (!keepAlive) headers.connection = 'close';
  return headers;
}

export async function relayRaw(
  deps: RawDeps,
  route: string,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
): Promise<void> {
  const record = deps.observer?.started(route);
  let status = 0;
  try {
    status = await relayAdmitted(deps, request, reply);
  } catch (error) {
    status = reply.raw.headersSent ? reply.raw.statusCode : error instanceof AppError ? error.status : 500;
    throw error;
  } finally {
    if (record) deps.observer?.finished(record, status);
  }
}

/** Answers the upstream's status once the answer is written. */
async function relayAdmitted(deps: RawDeps, request: RelayHttpRequest, reply: RelayHttpReply): Promise<number> {
  const startedAt = Date.now();
  const caller = request.relayCaller ?? (await deps.keys.authenticate(request.headers.authorization, request.ip));
  const incoming = reply.raw.req;
  const method = incoming.method ?? 'GET';
  if (!METHODS.has(method)) throw AppError.badRequest(`method ${method} is not passed through`);
  const channel = rawChannel(deps, caller, request);
  const target = rawTarget(channel, deps.baseUrlOf(channel), request.url);
  const refusal: Record<string, string> = {};
  const release = await enterLimits(deps, caller, (name, value) => {
    refusal[name] = value;
  }).catch((error: unknown) => {
    for (const [name, value] of Object.entries(refusal)) reply.header(name, value);
    throw error;
  });
  try {
    const upstream = await send(deps, channel, reply.raw, {
      url: target.url,
      method: method as SentRequest['method'],
      headers: upstreamHeaders(channel, incoming.headers, target.headers),
      body: hasBody(incoming.headers) ? incoming : null,
      proxy: channel.proxy,
    });
    if (!upstream) return 0;
    const complete = await answer(upstream, reply.raw, incoming);
    if (!complete && !reply.raw.destroyed) reply.raw.destroy();
    if (deps.options.getBoolean('LogConsumeEnabled')) {
      deps.writeLog(rawLogRow(caller, request, channel.id, startedAt, upstream));
    }
    return upstream.status;
  } finally {
    release();
  }
}

/**
 * Sends the request with the client's body streaming through; undefined when the client went away
 * first. The upstream is stopped when the client leaves before the answer's end.
 */
async function send(
  deps: RawDeps,
  channel: RouterChannel,
  response: ServerResponse,
  upstream: SentRequest,
): Promise<UpstreamResponse | undefined> {
  const abort = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) abort.abort(new Error('the client went away'));
  };
  response.once('close', onClose);
  try {
    const answered = await deps.upstream.send({ ...upstream, signal: abort.signal });
    answered.body.once('close', () => response.off('close', onClose));
    return answered;
  } catch (error) {
    response.off('close', onClose);
    // The client went away (mid-upload, its body breaks off before its response closes): no one to tell.
    if (abort.signal.aborted || response.req.destroyed) return undefined;
    // The detail (an address, a socket error) is for the log, not the caller.
    deps.logger.warn({ channel: channel.id, detail: String(error) }, 'raw pass-through upstream failed');
    throw new AppError('upstream_error', `channel ${channel.id} did not answer; try again later`, {
      details: { code: 'upstream_unreachable' },
    });
  }
}

/** Writes the upstream's status, safe headers and body to the client; false when it broke off. */
async function answer(upstream: UpstreamResponse, response: ServerResponse, incoming: IncomingMessage) {
  response.writeHead(upstream.status, clientHeaders(upstream, !bodyUnread(incoming)));
  try {
    await pipeline(upstream.body, response);
    return true;
  } catch {
    return false;
  }
}

function rawLogRow(
  caller: RelayCaller,
  request: RelayHttpRequest,
  channelId: number,
  startedAt: number,
  upstream: UpstreamResponse,
) {
  const { path } = splitRequestUrl(request.url);
  return {
    ...blankLogRow(LogType.consume),
    user_id: caller.user.id,
    username: fitLogColumn('username', caller.user.username),
    created_at: Math.floor(Date.now() / 1000),
    content: `${RAW_LOG_PREFIX}${path}`,
    token_name: fitLogColumn('token_name', caller.token.name),
    token_id: caller.token.id,
    channel_id: channelId,
    request_time: Date.now() - startedAt,
    is_stream: String(upstream.headers['content-type'] ?? '').startsWith('text/event-stream'),
    source_ip: fitLogColumn('source_ip', request.ip),
    request_id: fitLogColumn('request_id', request.id),
    metadata: JSON.stringify({ status: upstream.status }),
  };
}
