import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the Suno and Kling stand-ins share: JSON in and out, a loopback port, a record of calls. */

export interface ReceivedCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

/** A scripted answer to the next submit. */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export function sendFile(response: ServerResponse, type: string, bytes: Buffer): void {
  response.writeHead(200, { 'content-type': type, 'content-length': bytes.length });
  response.end(bytes);
}

export async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
}

export async function listen(
  handle: (request: IncomingMessage, response: ServerResponse, call: ReceivedCall) => void | Promise<void>,
  received: ReceivedCall[],
): Promise<{ server: Server; baseUrl: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    void (async () => {
      const path = (request.url ?? '/').split('?')[0] as string;
      const body = request.method === 'POST' ? await readJson(request).catch(() => undefined) : undefined;
      const call = { method: request.method ?? 'GET', path, headers: request.headers, body };
      received.push(call);
      await handle(request, response, call);
    })().catch((error: unknown) => sendJson(response, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
