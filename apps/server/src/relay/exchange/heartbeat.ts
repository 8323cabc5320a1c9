import type { ServerResponse } from 'node:http';
import { streamHeaders } from '../transport/respond.js';

/**
 * A key's heartbeat (reference §4.6): some clients and proxies give up on a connection that stays
 * silent, and a slow model (a long reasoning pass) can keep the first byte back for minutes. When
 * the answer has not begun `startAfterMs` after the request came in, the status line and headers go
 * out early (an event stream, or JSON) and a keep-alive follows every `intervalMs`: an SSE comment
 * (`::PING`) for a stream, a blank line for JSON, which parsers skip. The first write of the real
 * answer stops it; the status and headers that answer would have written are then already out.
 *
 * Once the heartbeat has begun nothing can be retried on another channel (bytes are out), and a
 * failure has to be told in the body: see `fail`.
 */
export interface HeartbeatTiming {
  /** How long one second of a key's `timeout_seconds` lasts (1000; tests shorten it). */
  secondMs: number;
  intervalMs: number;
}

export const HEARTBEAT_TIMING: HeartbeatTiming = { secondMs: 1000, intervalMs: 5000 };

export class Heartbeat {
  /** The early headers are out: the answer's status is 200 whatever happens next. */
  started = false;
  private timer: NodeJS.Timeout | undefined;
  private interval: NodeJS.Timeout | undefined;
  /** The response's own methods, before the heartbeat wraps them. */
  private readonly write: (text: string) => boolean;
  private readonly writeHead: (status: number, headers: Record<string, string>) => unknown;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: { stream: boolean; startAfterMs: number; intervalMs: number },
  ) {
    this.write = response.write.bind(response);
    this.writeHead = response.writeHead.bind(response);
    this.timer = setTimeout(() => this.begin(), Math.max(0, options.startAfterMs));
    this.timer.unref();
  }

  private begin(): void {
    this.timer = undefined;
    const { response } = this;
    if (response.headersSent || response.destroyed) return;
    this.started = true;
    this.writeHead(200, this.options.stream ? streamHeaders : { 'content-type': 'application/json' });
    // The answer's own status line and headers cannot follow any more; its first write ends the pings.
    response.writeHead = (() => response) as unknown as ServerResponse['writeHead'];
    const stopOnFirstWrite = (original: (...args: never[]) => unknown) =>
      ((...args: never[]) => {
        this.stop();
        return original.apply(response, args);
      }) as never;
    response.write = stopOnFirstWrite(response.write);
    response.end = stopOnFirstWrite(response.end);
    this.ping();
    this.interval = setInterval(() => this.ping(), this.options.intervalMs);
    this.interval.unref();
  }

  private ping(): void {
    const { response } = this;
    // A client that is not reading needs no keep-alive piling up in memory.
    if (response.destroyed || response.writableNeedDrain) return;
    this.write(this.options.stream ? '::PING\n\n' : '\n');
  }

  /** Ends the heartbeat; the answer writes as usual from here. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.interval) clearInterval(this.interval);
    this.timer = undefined;
    this.interval = undefined;
  }

  /**
   * A failure after the early headers: told in the body, as an event for a stream (the client's
   * SDK raises it) or as the error JSON itself for a whole answer.
   */
  fail(errorBody: unknown): void {
    this.stop();
    const { response } = this;
    if (response.destroyed || response.writableEnded) return;
    const json = JSON.stringify(errorBody);
    response.end(this.options.stream ? `data: ${json}\n\n` : json);
  }
}
