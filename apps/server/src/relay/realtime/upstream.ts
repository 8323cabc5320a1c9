import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { providerByType } from '../../domain/channel-types/registry.js';
import { AppError } from '../../platform/errors.js';
import { classifyUpstreamError, networkFailure, type UpstreamFailure } from '../exchange/upstream-errors.js';
import { AZURE_DEFAULT_API_VERSION, openAiTarget } from '../providers/openai/request.js';
import type { RouterChannel } from '../routing/router.js';

/**
 * Where a realtime session goes upstream and how it authenticates. OpenAI and the vendors that
 * copy its addresses with a bearer key take `wss://<base>/v1/realtime?model=<model>`; Azure takes
 * `wss://<resource>/openai/realtime?api-version=<other>&deployment=<model>` with an `api-key`
 * header; Azure's v1 API (as its chat) keeps OpenAI's path under `/openai`:
 * `wss://<resource>/openai/v1/realtime?model=<deployment>` with the `api-key` header, and an
 * `api-version` only when the channel names one. Other channel types have no realtime API and are
 * passed over.
 */
export interface RealtimeTarget {
  url: string;
  headers: Record<string, string>;
}

/** The reference's relay-mode number of realtime in a custom channel's `plugin.customize`. */
const REALTIME_MODE = '14';
const SERVED_LAYOUTS = new Set(['bearer', 'custom', 'azure', 'azure-v1']);

const toWebSocketScheme = (url: string) => url.replace(/^http(s?):\/\//i, (_match, secure: string) => `ws${secure}://`);
const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

/** The custom path a custom channel sets for realtime: a path, `disable`, or undefined for the default. */
function customRealtimePath(channel: RouterChannel): string | undefined {
  const customize = channel.plugin.customize;
  if (typeof customize !== 'object' || customize === null) return undefined;
  const value = (customize as Record<string, unknown>)[REALTIME_MODE];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/**
 * The upstream address and headers of a realtime session on `channel`, or undefined when the
 * channel's type has no realtime API (another channel may have one).
 */
export function realtimeTarget(
  channel: RouterChannel,
  baseUrl: string,
  upstreamModel: string,
  beta: string | undefined,
): RealtimeTarget | undefined {
  const provider = providerByType(channel.type);
  const layout = provider?.openAiLayout ?? 'bearer';
  if (provider?.adapter !== 'openai' || !SERVED_LAYOUTS.has(layout) || !baseUrl) return undefined;
  const base = baseUrl.replace(/\/+$/, '');
  const model = encodeURIComponent(upstreamModel);
  let url: string;
  let auth: Record<string, string>;
  if (layout === 'azure') {
    const version = encodeURIComponent(channel.other.trim() || AZURE_DEFAULT_API_VERSION);
    url = `${base}/openai/realtime?api-version=${version}&deployment=${model}`;
    auth = { 'api-key': channel.key };
  } else if (layout === 'azure-v1') {
    const version = channel.other.trim();
    url = `${base}/openai/v1/realtime?model=${model}${version ? `&api-version=${encodeURIComponent(version)}` : ''}`;
    auth = { 'api-key': channel.key };
  } else {
    const custom = layout === 'custom' ? customRealtimePath(channel) : undefined;
    if (custom?.toLowerCase() === 'disable') return undefined;
    const target = openAiTarget(channel, base, '/v1/realtime', upstreamModel);
    const path = custom === undefined ? target.url : `${base}${custom.startsWith('/') ? '' : '/'}${custom}`;
    url = withQuery(path, `model=${model}`);
    auth = target.headers;
  }
  const headers = { ...channel.model_headers, ...auth, ...(beta ? { 'openai-beta': beta } : {}) };
  return { url: toWebSocketScheme(url), headers };
}

export interface UpstreamOptions {
  /** Until the upstream has answered the upgrade (connection, TLS and its response). */
  handshakeMs: number;
  /** The largest message either side may send. */
  maxPayload: number;
}

/** An error answer's body is read up to this much, for its message. */
const ERROR_BODY_LIMIT = 64 * 1024;

function handshakeTimedOut(cause: unknown): UpstreamFailure {
  const error = new AppError('upstream_error', 'upstream timed out: the channel did not accept the session in time', {
    status: 504,
    retryable: true,
    cause,
    details: { type: 'upstream_error', code: 'upstream_timeout' },
  });
  const detail = `the upstream did not answer the WebSocket upgrade in time: ${String(cause)}`;
  return { error, retry: true, disable: false, coolDown: true, timedOut: true, detail, class: 'timeout' };
}

/** Reads an upgrade refusal's body (bounded) and classifies it like an HTTP error answer. */
function readRefusal(response: IncomingMessage): Promise<UpstreamFailure> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const finish = () => resolve(classifyUpstreamError(response.statusCode ?? 502, Buffer.concat(parts).toString()));
    response.on('data', (part: Buffer) => {
      if (size >= ERROR_BODY_LIMIT) return;
      parts.push(part.subarray(0, ERROR_BODY_LIMIT - size));
      size += part.length;
    });
    response.once('end', finish);
    response.once('error', finish);
    response.once('aborted', finish);
  });
}

/**
 * Opens the upstream session: the socket once the upstream accepted the upgrade, or the failure
 * (a refusal with its status and body, a connection error, a timeout) for the retry loop. The
 * socket comes paused: the caller resumes it once it listens.
 */
export function connectUpstream(
  target: RealtimeTarget,
  options: UpstreamOptions,
): Promise<WebSocket | UpstreamFailure> {
  return new Promise((resolve) => {
    const socket = new WebSocket(target.url, {
      headers: target.headers,
      handshakeTimeout: options.handshakeMs,
      maxPayload: options.maxPayload,
      perMessageDeflate: false,
      followRedirects: false,
    });
    let answered = false;
    const answer = (value: WebSocket | UpstreamFailure) => {
      if (answered) return;
      answered = true;
      resolve(value);
    };
    // Errors after the answer (a reset while closing) are the bridge's to handle; none may go unheard.
    socket.on('error', (error) => {
      answer(/timed out/i.test(error.message) ? handshakeTimedOut(error) : networkFailure(error));
    });
    // Held until the client's side is ready: nothing the upstream says first may be lost.
    socket.once('open', () => {
      socket.pause();
      answer(socket);
    });
    socket.once('unexpected-response', (request, response) => {
      readRefusal(response).then((failure) => {
        request.destroy();
        answer(failure);
      });
    });
  });
}
