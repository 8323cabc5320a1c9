import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** JSON or form body, parsed; raw text otherwise. */
  body: Record<string, string> | unknown;
}

export type MockHandler = (call: ReceivedCall) => { status?: number; body: unknown } | undefined;

export interface HttpMock {
  url: string;
  received: ReceivedCall[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (!text) return {};
  const type = request.headers['content-type'] ?? '';
  if (type.includes('application/json')) return JSON.parse(text) as unknown;
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  return text;
}

/**
 * A loopback HTTP server that hands each call to the first handler that answers it (by returning
 * something) and records every call. Unanswered calls get a 404 JSON body.
 */
export async function startHttpMock(handlers: MockHandler[]): Promise<HttpMock> {
  const received: ReceivedCall[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const call: ReceivedCall = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: await readBody(request),
      };
      received.push(call);
      let answer: { status?: number; body: unknown } | undefined;
      for (const handler of handlers) {
        answer = handler(call);
        if (answer) break;
      }
      answer ??= { status: 404, body: { message: 'Not Found' } };
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(answer.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const bearer = (call: ReceivedCall) => (call.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
export const field = (call: ReceivedCall, name: string) => {
  const value = (call.body as Record<string, unknown>)?.[name];
  return typeof value === 'string' ? value : '';
};
