import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomString } from '../platform/crypto.js';

/** Every response names its request, so an operator can find it in the logs. */
export const requestIdHeader = 'X-Request-Id';
/** The reference system's name for the same header, kept for its clients. */
export const legacyRequestIdHeader = 'X-Oneapi-Request-Id';

// Unique across nodes by a random prefix per process, within one by a counter; cheap per request.
const processPrefix = randomString(6);
let counter = 0;
let stampSecond = 0;
let stamp = '';

export function nextRequestId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(now)
      .toISOString()
      .replace(/[-:TZ.]/g, '')
      .slice(0, 14);
  }
  counter = (counter + 1) % 2_176_782_336;
  return `${stamp}${processPrefix}${counter.toString(36).padStart(6, '0')}`;
}

/**
 * Kept on the request itself: a WeakMap entry per request is work for every garbage collection
 * (its entries are ephemerons), and the id lives exactly as long as the request anyway.
 */
const requestId = Symbol('one-hub.requestId');
type NamedRequest = IncomingMessage & { [requestId]?: string };

/**
 * The one place a request is named: the server's request listener calls it for every request,
 * before either front (the relay's or Fastify) sees it. The headers are set on the response, and
 * Node merges them into whatever status line and headers the handler writes later.
 */
export function nameRequest(request: IncomingMessage, response: ServerResponse): string {
  const id = nextRequestId();
  (request as NamedRequest)[requestId] = id;
  response.setHeader(requestIdHeader, id);
  response.setHeader(legacyRequestIdHeader, id);
  return id;
}

/** The name the listener gave the request (Fastify's genReqId), or a fresh one for `inject`. */
export function requestIdOf(request: IncomingMessage): string {
  return (request as NamedRequest)[requestId] ?? nextRequestId();
}
