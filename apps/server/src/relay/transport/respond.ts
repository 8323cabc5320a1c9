import type { ServerResponse } from 'node:http';
import type { RelayHttpReply } from '../../http/relay-front.js';
import { AppError } from '../../platform/errors.js';
import type { StreamedResponse } from './executor.js';

/** How a forwarded body went: when its first byte came, and whether it reached its end. */
export interface TransferOutcome {
  firstByteMs: number | undefined;
  /** The client went away before the end; the upstream was stopped. */
  clientGone: boolean;
  /** The upstream broke off mid-way. */
  failure?: unknown;
}

/**
 * What turns an upstream body into the client's, chunk by chunk: a pass-through, a translation,
 * a re-framing. It keeps only counters, never the body.
 */
export interface StreamRelay {
  /** One upstream chunk: writes what the client gets through `client` and answers that write's hold. */
  chunk(bytes: Buffer, client: ClientWriter): undefined | Promise<unknown>;
  /** The upstream ended cleanly: what closes the client's body ('' for nothing). */
  end(): string;
  /** The upstream broke off: what tells the client, or undefined to cut the connection (a truncated file). */
  fail(message: string): string | undefined;
}

/**
 * The headers of every event stream. The request id is not among them: the server's listener
 * sets it on every response before any front sees the request (http/request-id.ts), and Node
 * merges it into whatever status line is written later. One object serves every stream.
 */
export const streamHeaders: Record<string, string> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
});

/**
 * Answers with a whole body, written straight to the socket in one call: the relay's replies
 * need none of Fastify's send pipeline (serialisers, onSend hooks), and skipping it is measurably
 * faster on the hot path. Headers set on the reply earlier are not sent: pass them here.
 */
export function sendWhole(reply: RelayHttpReply, status: number, contentType: string, body: Buffer | string): void {
  reply.hijack();
  reply.raw.writeHead(status, {
    'content-type': contentType,
    'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
  });
  reply.raw.end(body);
}

/** What a stream relay writes the client's body through. */
export type ClientWriter = Pick<ClientLink, 'write'>;

/**
 * The client end of a forwarded body. A write the client cannot take yet answers a promise that
 * holds the upstream until the client drains, so a slow client cannot make the server buffer; a
 * client that leaves stops the upstream.
 *
 * The first write goes out at once, so the first byte does not wait for the reading of the events
 * that came with it. Later writes of one tick (an upstream burst, read in one go) are gathered
 * and handed to the response as one write at the end of the tick: one chunk of the chunked
 * encoding instead of one per event, whose framing Node's `writev` builds entry by entry. A write
 * that would take the response to its high-water mark (framing counted) sends what is gathered at once, so its
 * answer (a promise to hold the upstream, or none) is the response's own, as without gathering.
 */
export class ClientLink {
  gone = false;
  private started = false;
  /** Writes of this tick not yet handed to the response, in order, and their size in bytes. */
  private gathered: (string | Uint8Array)[] = [];
  private gatheredBytes = 0;
  private flushQueued = false;
  private readonly flushAtTickEnd = () => {
    this.flushQueued = false;
    this.flush();
  };
  private readonly onClose = () => {
    if (!this.response.writableFinished) {
      this.gone = true;
      this.upstream.abort();
    }
  };

  constructor(
    private readonly response: ServerResponse,
    private readonly upstream: StreamedResponse,
  ) {
    response.once('close', this.onClose);
  }

  write(data: string | Uint8Array): undefined | Promise<unknown> {
    if (this.gone || this.response.destroyed) return undefined;
    if (!this.started) {
      this.started = true;
      const accepted = this.response.write(data);
      // Node holds writes until the end of the tick to send them together: the first one goes now.
      this.response.uncork();
      return accepted ? undefined : this.drained();
    }
    this.gathered.push(data);
    this.gatheredBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    const { response } = this;
    if (response.writableLength + this.gatheredBytes + CHUNK_FRAME_BYTES < response.writableHighWaterMark) {
      if (!this.flushQueued) {
        this.flushQueued = true;
        process.nextTick(this.flushAtTickEnd);
      }
      return undefined;
    }
    return this.flush() ? undefined : this.drained();
  }

  /**
   * Hands what is gathered to the response as one write; answers whether the response took it
   * without reaching its high-water mark. Called before anything that must follow it (the end,
   * a cut, the settlement).
   */
  flush(): boolean {
    const parts = this.gathered;
    if (parts.length === 0) return true;
    const size = this.gatheredBytes;
    this.gathered = [];
    this.gatheredBytes = 0;
    if (this.gone || this.response.destroyed) return true;
    return this.response.write(parts.length === 1 ? (parts[0] as string | Uint8Array) : joined(parts, size));
  }

  release(): void {
    this.flush();
    this.response.off('close', this.onClose);
  }

  private drained(): Promise<unknown> {
    return new Promise((resolve) => this.response.once('drain', resolve).once('close', resolve));
  }
}

/** The most the chunked encoding adds around one write: its size in hex (up to 8 digits) and two CRLFs. */
const CHUNK_FRAME_BYTES = 12;

/** Writes in order as one: a string when all are strings, bytes otherwise. */
function joined(parts: (string | Uint8Array)[], size: number): string | Buffer {
  if (parts.every((part) => typeof part === 'string')) return parts.join('');
  return Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)),
    size,
  );
}

/**
 * The one pump: forwards an upstream body to the client as it arrives, one write per upstream
 * chunk through `relay`, holding the upstream while the client drains and stopping it when the
 * client leaves. A break mid-way reaches the client as the relay tells it, or cuts the connection.
 * `beforeEnd` runs when the upstream is done and before what closes the body (the relay's last
 * event) is written: the relay settles and journals there, so a client that saw the end was billed.
 * If it fails the connection is cut, and the client never sees a complete answer.
 */
export async function pumpToClient(
  upstream: StreamedResponse,
  reply: RelayHttpReply,
  head: { status: number; headers: Record<string, string> },
  relay: StreamRelay,
  startedAt: number,
  beforeEnd?: (outcome: TransferOutcome) => Promise<void>,
): Promise<TransferOutcome> {
  reply.hijack();
  reply.raw.writeHead(head.status, head.headers);
  const outcome: TransferOutcome = { firstByteMs: undefined, clientGone: false };
  const client = new ClientLink(reply.raw, upstream);
  let cut = false;
  /** What closes the body: the relay's end, or what tells of a break. */
  let last: string | undefined;
  try {
    await upstream.pump((bytes) => {
      outcome.firstByteMs ??= Date.now() - startedAt;
      return relay.chunk(bytes, client);
    });
    last = relay.end();
  } catch (error) {
    if (!client.gone) {
      outcome.failure = error;
      last = relay.fail(streamBreakMessage(error));
      if (last === undefined) cut = true;
    }
  }
  // What the upstream sent reaches the response before the settlement and what closes the body.
  client.flush();
  try {
    outcome.clientGone = client.gone;
    if (beforeEnd) await beforeEnd(outcome);
    if (last) await client.write(last);
  } catch (error) {
    client.flush();
    reply.raw.destroy();
    throw error;
  } finally {
    client.release();
  }
  outcome.clientGone = client.gone;
  if (cut) reply.raw.destroy();
  else if (!client.gone) reply.raw.end();
  return outcome;
}

/** Forwards every chunk unchanged (binary bodies); a break cuts the connection. */
export const bytesRelay: StreamRelay = {
  chunk: (bytes, client) => client.write(bytes),
  end: () => '',
  fail: () => undefined,
};

/**
 * What the client reads when the answer breaks off mid-way: a network error's own text may name
 * the channel's address, so those get a plain sentence; our own errors (a stream that could not
 * be read) keep theirs.
 */
export function streamBreakMessage(cause: unknown): string {
  const code = cause instanceof AppError ? undefined : (cause as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_BODY_TIMEOUT') return 'the upstream stopped sending (idle timeout); the answer is incomplete';
  if (typeof code === 'string' || !(cause instanceof Error)) return 'the upstream broke off; the answer is incomplete';
  return cause.message;
}
