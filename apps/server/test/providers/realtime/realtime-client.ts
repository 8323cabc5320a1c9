import type { IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';

/**
 * A client of the gateway's `/v1/realtime`, with the `ws` package as OpenAI's Node examples use
 * it. It keeps every event received and waits for the ones a test names; a refused upgrade gives
 * its HTTP status and JSON body.
 */
export interface RealtimeSession {
  socket: WebSocket;
  /** Headers of the 101 answer. */
  headers: IncomingHttpHeaders;
  protocol: string;
  events: Array<Record<string, unknown>>;
  binaries: Buffer[];
  /** The next event of `type` not yet taken (waits for it, bounded). */
  next(type: string): Promise<Record<string, unknown>>;
  send(event: Record<string, unknown>): void;
  closed: Promise<{ code: number; reason: string }>;
}

export interface RefusedUpgrade {
  status: number;
  headers: IncomingHttpHeaders;
  body: { error: { message: string; type: string; code: string | null; param: string | null } };
}

const WAIT_MS = 10_000;

export function openRealtime(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[] } = {},
): Promise<RealtimeSession | RefusedUpgrade> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    const events: Array<Record<string, unknown>> = [];
    const binaries: Buffer[] = [];
    const taken = new Set<number>();
    const waiters: Array<() => void> = [];
    let headers: IncomingHttpHeaders = {};
    socket.on('upgrade', (response) => {
      headers = response.headers;
    });
    socket.on('message', (data: Buffer, binary) => {
      if (binary) binaries.push(data);
      else events.push(JSON.parse(data.toString()) as Record<string, unknown>);
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((done) => {
      socket.on('close', (code, reason) => {
        done({ code, reason: reason.toString() });
        for (const wake of waiters.splice(0)) wake();
      });
    });
    const next = async (type: string) => {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const index = events.findIndex((event, at) => event.type === type && !taken.has(at));
        if (index >= 0) {
          taken.add(index);
          return events[index] as Record<string, unknown>;
        }
        if (socket.readyState === WebSocket.CLOSED) throw new Error(`closed before a ${type} event`);
        if (Date.now() > deadline) throw new Error(`no ${type} event within ${WAIT_MS} ms`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 200).unref();
        });
      }
    };
    socket.once('open', () =>
      resolve({
        socket,
        headers,
        protocol: socket.protocol,
        events,
        binaries,
        next,
        send: (event) => socket.send(JSON.stringify(event)),
        closed,
      }),
    );
    socket.once('unexpected-response', (_request, response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: JSON.parse(Buffer.concat(parts).toString()) as RefusedUpgrade['body'],
        });
      });
    });
    socket.once('error', reject);
  });
}

export function isRefused(value: RealtimeSession | RefusedUpgrade): value is RefusedUpgrade {
  return 'status' in value;
}

/** The session, or a failure naming the refusal. */
export function accepted(value: RealtimeSession | RefusedUpgrade): RealtimeSession {
  if (isRefused(value)) throw new Error(`upgrade refused: ${value.status} ${JSON.stringify(value.body)}`);
  return value;
}

/** The refusal, or a failure saying the session was accepted. */
export function refused(value: RealtimeSession | RefusedUpgrade): RefusedUpgrade {
  if (!isRefused(value)) {
    value.socket.terminate();
    throw new Error('the upgrade was accepted');
  }
  return value;
}
