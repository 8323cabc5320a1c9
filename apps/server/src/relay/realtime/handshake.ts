import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { legacyRequestIdHeader, requestIdHeader } from '../../http/request-id.js';
import { AppError } from '../../platform/errors.js';
import { openAiErrorBody } from '../surfaces/errors.js';

/**
 * The HTTP side of a realtime upgrade: what the client asked for (path, model, key, subprotocols,
 * beta header) and the JSON error answered instead of a socket when it is refused. Browsers cannot
 * set headers on a WebSocket, so OpenAI's Realtime API also takes the key as the subprotocol
 * `openai-insecure-api-key.<key>`, offered beside `realtime` (and `openai-beta.realtime-v1` for its
 * beta interface).
 */
export const REALTIME_PATH = '/v1/realtime';
const KEY_PROTOCOL = 'openai-insecure-api-key.';
const BETA_PROTOCOL = 'openai-beta.realtime-v1';
/** Chosen in this order among those offered; the key's subprotocol is never echoed back. */
const ANSWERED_PROTOCOLS = ['realtime', BETA_PROTOCOL];

export interface RealtimeAsk {
  path: string;
  model: string | undefined;
  /** The key: `Authorization`, else the key subprotocol. */
  credential: string | undefined;
  /** The `OpenAI-Beta` value to send upstream: the client's header, or `realtime=v1` for the beta subprotocol. */
  beta: string | undefined;
}

function offeredProtocols(raw: IncomingMessage): string[] {
  const header = raw.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return [];
  return header
    .split(',')
    .map((protocol) => protocol.trim())
    .filter(Boolean);
}

export function readAsk(raw: IncomingMessage): RealtimeAsk {
  const url = new URL(raw.url ?? '/', 'http://gateway');
  const protocols = offeredProtocols(raw);
  const keyProtocol = protocols.find((protocol) => protocol.startsWith(KEY_PROTOCOL));
  const authorization = raw.headers.authorization;
  const betaHeader = raw.headers['openai-beta'];
  return {
    path: url.pathname.replace(/\/+$/, ''),
    model: url.searchParams.get('model')?.trim() || undefined,
    credential: authorization || (keyProtocol ? keyProtocol.slice(KEY_PROTOCOL.length) : undefined),
    beta:
      typeof betaHeader === 'string' && betaHeader
        ? betaHeader
        : protocols.includes(BETA_PROTOCOL)
          ? 'realtime=v1'
          : undefined,
  };
}

/** The subprotocol the gateway answers with (ws `handleProtocols`), or false to answer none. */
export function chooseProtocol(offered: Set<string>): string | false {
  return ANSWERED_PROTOCOLS.find((protocol) => offered.has(protocol)) ?? false;
}

const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

/** A request that is not a well-formed WebSocket upgrade (RFC 6455 §4.2.1) is refused before any work. */
export function checkUpgradeRequest(raw: IncomingMessage): void {
  const upgrade = raw.headers.upgrade?.toLowerCase();
  const key = raw.headers['sec-websocket-key'];
  const version = raw.headers['sec-websocket-version'];
  if (raw.method !== 'GET' || upgrade !== 'websocket' || typeof key !== 'string' || !WEBSOCKET_KEY.test(key.trim())) {
    throw AppError.badRequest('not a valid WebSocket upgrade request');
  }
  if (version !== '8' && version !== '13') {
    throw new AppError('bad_request', 'unsupported WebSocket version: use version 13', { status: 426 });
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Answers the upgrade request with the error in OpenAI's envelope and closes the connection. */
export function refuseUpgrade(
  socket: Duplex,
  error: AppError,
  requestId: string,
  url: string,
  headers: Record<string, string> = {},
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(openAiErrorBody(error, { id: requestId, url }));
  const lines = [
    `HTTP/1.1 ${error.status} ${STATUS_TEXT[error.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `${requestIdHeader}: ${requestId}`,
    `${legacyRequestIdHeader}: ${requestId}`,
    ...(error.status === 426 ? ['Sec-WebSocket-Version: 13'] : []),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}
