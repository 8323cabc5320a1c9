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
 */
export class ClientLink {
  gone = false;
  private started = false;
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
    const accepted = this.response.write(data);
    // Node holds writes until the end of the tick to send them together. The first one goes now,
    // so the first byte does not wait for the reading of the events that came with it; later
    // ones are gathered (an upstream burst goes out in one packet, not one per event).
    if (!this.started) {
      this.started = true;
      this.response.uncork();
    }
    if (accepted) return undefined;
    return new Promise((resolve) => this.response.once('drain', resolve).once('close', resolve));
  }

  release(): void {
    this.response.off('close', this.onClose);
  }
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
  try {
    outcome.clientGone = client.gone;
    if (beforeEnd) await beforeEnd(outcome);
    if (last) await client.write(last);
  } catch (error) {
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
