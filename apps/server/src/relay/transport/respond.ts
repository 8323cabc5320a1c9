import type { ServerResponse } from 'node:http';
import type { RelayHttpReply } from '../../http/direct-routes.js';
import { TextTally } from '../billing/metering.js';
import type { Usage } from '../billing/quota.js';
import { isObject, type RelayInput, type StreamFormat } from '../exchange/endpoint.js';
import { streamBreakMessage } from '../exchange/upstream-errors.js';
import type { StreamedResponse } from './executor.js';
import { eventData, SseSplitter } from './sse.js';

export interface TransferOutcome {
  firstByteMs: number | undefined;
  /** The client went away before the end; the upstream was stopped. */
  clientGone: boolean;
  /** The upstream broke off mid-way. */
  failure?: unknown;
}

export interface StreamOutcome extends TransferOutcome {
  usage: Usage | undefined;
  /** Completion tokens counted from the streamed text; only when the upstream reported no usage. */
  countedCompletionTokens: number;
  /** The upstream sent the format's end marker (`data: [DONE]`). */
  sawEndMarker: boolean;
}

export function streamHeaders(requestId: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...requestIdHeaders(requestId),
  };
}

export function requestIdHeaders(requestId: string): Record<string, string> {
  return { 'x-request-id': requestId, 'x-oneapi-request-id': requestId };
}

/**
 * Answers with a whole body, written straight to the socket in one call: the relay's replies
 * need none of Fastify's send pipeline (serialisers, onSend hooks), and skipping it is measurably
 * faster on the hot path. Headers set on the reply earlier are not sent: pass them here.
 */
export function sendWhole(
  reply: RelayHttpReply,
  requestId: string,
  status: number,
  contentType: string,
  body: Buffer | string,
): void {
  reply.hijack();
  reply.raw.writeHead(status, {
    'content-type': contentType,
    'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    ...requestIdHeaders(requestId),
  });
  reply.raw.end(body);
}

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

/** Forwards an upstream SSE stream event by event as it arrives, keeping only counters. */
export async function relayStream(
  upstream: StreamedResponse,
  reply: RelayHttpReply,
  options: { format: StreamFormat; input: RelayInput; startedAt: number },
): Promise<StreamOutcome> {
  const outcome: StreamOutcome = {
    usage: undefined,
    countedCompletionTokens: 0,
    sawEndMarker: false,
    firstByteMs: undefined,
    clientGone: false,
  };
  const client = new ClientLink(reply.raw, upstream);
  const splitter = new SseSplitter();
  const tally = new TextTally();
  // The events completed by one upstream chunk go to the client in one write, not one each.
  const forward = (events: string[]) => {
    let text = '';
    for (const event of events) text += forwardEvent(event, outcome, tally, options);
    return text ? client.write(text) : undefined;
  };
  const { format, input } = options;
  const kept = (event: string) => !format.rewrite || format.mayRewrite?.(event, input) === false;
  try {
    await upstream.pump((chunk) => {
      outcome.firstByteMs ??= Date.now() - options.startedAt;
      const startsEvent = splitter.isEmpty();
      const events = splitter.push(chunk);
      // A chunk of whole events that all go out unchanged is sent as it came, then read: the
      // client does not wait for the parsing. Ending on a line feed, it holds no partial character.
      if (startsEvent && splitter.isEmpty() && chunk[chunk.length - 1] === LINE_FEED && events.every(kept)) {
        const held = client.write(chunk);
        for (const event of events) readEvent(event, outcome, tally, format);
        return held;
      }
      return forward(events);
    });
    await forward(splitter.finish());
    // OpenAI's clients are promised a final `data: [DONE]`; a vendor that ends without one
    // still ended normally (a broken-off stream gets the error event below instead).
    if (format.endMarker && !outcome.sawEndMarker) await client.write(`data: ${format.endMarker}\n\n`);
  } catch (error) {
    if (!client.gone) {
      outcome.failure = error;
      const message = streamBreakMessage(error);
      await client.write(`data: ${JSON.stringify({ error: { message, type: 'upstream_error' } })}\n\n`);
    }
  } finally {
    client.release();
  }
  outcome.clientGone = client.gone;
  if (!client.gone) reply.raw.end();
  if (!outcome.usage) outcome.countedCompletionTokens = tally.total();
  return outcome;
}

const LINE_FEED = 0x0a;

/** Notes the usage and the text of one upstream event; answers its JSON, if it is JSON. */
function readEvent(event: string, outcome: StreamOutcome, tally: TextTally, format: StreamFormat): unknown {
  const data = eventData(event);
  if (data !== undefined && data === format.endMarker) outcome.sawEndMarker = true;
  if (data === undefined || data === '[DONE]') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined; // Not JSON: forwarded as is.
  }
  if (!isObject(parsed)) return undefined;
  const usage = format.usageOf(parsed);
  if (usage) outcome.usage = usage;
  tally.push(format.textOf(parsed));
  return parsed;
}

/** What the client gets for one upstream event ('' when it is dropped); usage and text are noted. */
function forwardEvent(
  event: string,
  outcome: StreamOutcome,
  tally: TextTally,
  options: { format: StreamFormat; input: RelayInput },
): string {
  const parsed = readEvent(event, outcome, tally, options.format);
  const replacement = isObject(parsed) ? options.format.rewrite?.(parsed, options.input) : undefined;
  if (replacement === null) return '';
  if (replacement !== undefined) return `data: ${JSON.stringify(replacement)}\n\n`;
  return `${event}\n\n`;
}

/**
 * Forwards a binary body (audio) chunk by chunk with the upstream's content type. An upstream
 * that breaks off mid-way cuts the client's connection too, so a truncated file is not taken
 * for a whole one.
 */
export async function relayBytes(
  upstream: StreamedResponse,
  reply: RelayHttpReply,
  options: { requestId: string; startedAt: number },
): Promise<TransferOutcome> {
  const contentType = upstream.headers['content-type'];
  reply.hijack();
  reply.raw.writeHead(upstream.status, {
    'content-type': typeof contentType === 'string' ? contentType : 'application/octet-stream',
    ...requestIdHeaders(options.requestId),
  });
  const outcome: TransferOutcome = { firstByteMs: undefined, clientGone: false };
  const client = new ClientLink(reply.raw, upstream);
  try {
    await upstream.pump((chunk) => {
      outcome.firstByteMs ??= Date.now() - options.startedAt;
      return client.write(chunk);
    });
  } catch (error) {
    if (!client.gone) outcome.failure = error;
  } finally {
    client.release();
  }
  outcome.clientGone = client.gone;
  if (outcome.failure) reply.raw.destroy();
  else if (!client.gone) reply.raw.end();
  return outcome;
}
