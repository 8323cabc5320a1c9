import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

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
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const { payload } = request;
  const response = await fetch(`http://127.0.0.1:${port}${request.url}`, {
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
