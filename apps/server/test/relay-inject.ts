import type { FastifyInstance } from 'fastify';
import { listenOnLoopback } from './app.js';

export interface RelayAnswer {
  statusCode: number;
  headers: Headers;
  body: string;
  /** The body parsed; callers narrow it to what they expect. */
  json(): unknown;
}

/**
 * `app.inject` for the relay's surfaces: they are served by the relay front on the server's
 * listener (http/server.ts), which `inject` skips, so the request goes over loopback. Listens on a
 * free port the first time.
 */
export async function relayInject(
  app: FastifyInstance,
  request: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: unknown },
): Promise<RelayAnswer> {
  const base = await listenOnLoopback({ app });
  const { payload } = request;
  const response = await fetch(`${base}${request.url}`, {
    method: request.method,
    headers: {
      ...(payload === undefined || typeof payload === 'string' ? {} : { 'content-type': 'application/json' }),
      ...request.headers,
    },
    ...(payload === undefined ? {} : { body: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
  const body = await response.text();
  return { statusCode: response.status, headers: response.headers, body, json: () => JSON.parse(body) };
}
