import { type Dispatcher, util } from 'undici';

/**
 * Calls through undici's dispatcher interface with our own handlers: no stream object, no URL
 * parse and no abort-signal wiring per call, which `request()` costs on every request.
 */
export interface DispatchRequest {
  url: string;
  method?: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string | Buffer;
}

type Headers = Record<string, string | string[] | undefined>;

/** An answer read to its end. */
export interface WholeResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** An answer whose body is read as it arrives. */
export interface StreamedResponse {
  status: number;
  headers: Headers;
  /**
   * Hands each chunk to `onChunk` in order; when it returns a promise the upstream is held until it
   * settles (backpressure). Resolves at the end of the body, rejects when the upstream breaks off.
   */
  pump(onChunk: (chunk: Buffer) => undefined | Promise<unknown>): Promise<void>;
  /** The rest of the body, up to `limit` bytes (error answers). */
  readAll(limit: number): Promise<Buffer>;
  /** Stops the upstream (the client left); a running `pump` rejects. */
  abort(): void;
}

/** `https://host:port/path?query` → origin and path, without building a URL object. */
export function splitUrl(url: string): { origin: string; path: string } {
  const hostStart = url.indexOf('://') + 3;
  const pathStart = url.indexOf('/', hostStart);
  if (hostStart < 3 || url.lastIndexOf('@', pathStart < 0 ? url.length : pathStart) >= 0) {
    // No scheme, or credentials in the authority: let the URL parser deal with it.
    const parsed = new URL(url);
    return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  }
  return pathStart < 0 ? { origin: url, path: '/' } : { origin: url.slice(0, pathStart), path: url.slice(pathStart) };
}

function options(upstream: DispatchRequest, headersTimeout?: number): Dispatcher.DispatchOptions {
  const { origin, path } = splitUrl(upstream.url);
  return {
    origin,
    path,
    method: upstream.method ?? 'POST',
    headers: upstream.headers,
    body: upstream.body ?? null,
    // Otherwise the dispatcher's own (the wait for a whole answer).
    ...(headersTimeout === undefined ? {} : { headersTimeout }),
  };
}

/** What may wait for the reader before the upstream is paused. */
const EARLY_BYTES = 64 * 1024;

const tooLarge = (limit: number) => new Error(`upstream response is larger than ${limit} bytes`);

function concat(parts: Buffer[], size: number): Buffer {
  return parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts, size);
}

export function dispatchWhole(
  dispatcher: Dispatcher,
  upstream: DispatchRequest,
  limit: number,
): Promise<WholeResponse> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options(upstream), new WholeAnswer(limit, resolve, reject));
  });
}

/**
 * Collects an answer whole, up to `limit` bytes. A class, where it was an object of closures made
 * in the promise's executor per call: V8 drops the optimised code of closures none of which is
 * alive at a full collection, and compiled that executor again about once per 10,000 requests.
 */
class WholeAnswer implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Headers = {};
  private readonly parts: Buffer[] = [];
  private size = 0;
  private abort: ((reason?: Error) => void) | undefined;

  constructor(
    private readonly limit: number,
    private readonly resolve: (answer: WholeResponse) => void,
    readonly onError: (error: Error) => void,
  ) {}

  onConnect(abortRequest: (reason?: Error) => void): void {
    this.abort = abortRequest;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    this.headers = util.parseHeaders(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.abort?.(tooLarge(this.limit));
      return false;
    }
    this.parts.push(chunk);
    return true;
  }

  onComplete(): void {
    this.resolve({ status: this.status, headers: this.headers, body: concat(this.parts, this.size) });
  }
}

/**
 * Resolves when the upstream's headers arrive. Chunks that come before `pump` is called wait in
 * a queue; beyond EARLY_BYTES the upstream is paused, so no more than that piles up.
 */
export function dispatchStream(
  dispatcher: Dispatcher,
  upstream: DispatchRequest,
  headersTimeout?: number,
): Promise<StreamedResponse> {
  return new Promise((resolveHeaders, rejectHeaders) => {
    let abort: ((reason?: Error) => void) | undefined;
    let resume: (() => void) | undefined;
    let paused = false;
    const waiting: Buffer[] = [];
    let waitingBytes = 0;
    /** The queue is being handed over: later chunks queue behind it, and the end waits for it. */
    let draining = false;
    let consumer: ((chunk: Buffer) => undefined | Promise<unknown>) | undefined;
    let ended = false;
    let failure: Error | undefined;
    let settle: { resolve(): void; reject(error: Error): void } | undefined;
    let headersSeen = false;

    const finish = () => {
      if (failure) settle?.reject(failure);
      else if (ended) settle?.resolve();
    };
    const unpause = () => {
      if (!paused) return;
      paused = false;
      resume?.();
    };
    const fail = (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      abort?.(failure);
    };
    const deliver = (chunk: Buffer): boolean => {
      let held: undefined | Promise<unknown>;
      try {
        held = consumer?.(chunk);
      } catch (error) {
        fail(error);
        return false;
      }
      if (!held) return true;
      held.then(unpause, fail);
      paused = true;
      return false;
    };

    const response = (status: number, headers: Headers): StreamedResponse => ({
      status,
      headers,
      async pump(onChunk) {
        await new Promise<void>((resolve, reject) => {
          settle = { resolve, reject };
          consumer = onChunk;
          const drainQueue = async () => {
            draining = true;
            try {
              while (waiting.length > 0) {
                const chunk = waiting.shift() as Buffer;
                waitingBytes -= chunk.length;
                await onChunk(chunk);
              }
            } finally {
              draining = false;
            }
          };
          drainQueue().then(
            () => {
              if (failure || ended) finish();
              else unpause();
            },
            (error: unknown) => {
              // The reader gave up on a queued chunk: the upstream is stopped, not left paused.
              fail(error);
              reject(failure);
            },
          );
        });
      },
      async readAll(limit) {
        const parts: Buffer[] = [];
        let size = 0;
        await this.pump((chunk) => {
          size += chunk.length;
          if (size > limit) throw tooLarge(limit);
          parts.push(chunk);
          return undefined;
        });
        return concat(parts, size);
      },
      abort() {
        abort?.(new Error('the client went away'));
      },
    });

    dispatcher.dispatch(options(upstream, headersTimeout), {
      onConnect(abortRequest: (reason?: Error) => void) {
        abort = abortRequest;
      },
      onHeaders(statusCode: number, rawHeaders: Buffer[], resumeRequest: () => void) {
        resume = resumeRequest;
        headersSeen = true;
        resolveHeaders(response(statusCode, util.parseHeaders(rawHeaders)));
        return true;
      },
      onData(chunk: Buffer) {
        if (consumer && waiting.length === 0 && !draining) return deliver(chunk);
        waiting.push(chunk);
        waitingBytes += chunk.length;
        // The first events often come with the headers, before the reader: a little is kept
        // without stopping the upstream (pausing and resuming it costs more than the copy).
        if (!consumer && waitingBytes <= EARLY_BYTES) return true;
        paused = true;
        return false;
      },
      onComplete() {
        ended = true;
        if (consumer && waiting.length === 0 && !paused && !draining) finish();
      },
      onError(error: Error) {
        failure = error;
        if (!headersSeen) rejectHeaders(error);
        else if (consumer) finish();
      },
    });
  });
}
