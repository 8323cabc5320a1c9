import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Usage } from './billing/quota.js';
import { isObject, type RelayInput, type StreamFormat } from './endpoint.js';
import type { UpstreamResponse } from './executor.js';
import { TextTally } from './metering.js';
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
 * The client end of a forwarded body. Writes wait for the client to drain, so a slow client
 * cannot make the server buffer; a client that leaves stops the upstream through `abort`.
 */
class ClientLink {
  gone = false;
  private readonly onClose = () => {
    if (!this.response.writableFinished) {
      this.gone = true;
      this.abort.abort();
    }
  };

  constructor(
    private readonly response: ServerResponse,
    private readonly abort: AbortController,
  ) {
    response.once('close', this.onClose);
  }

  async write(data: string | Uint8Array): Promise<void> {
    if (this.gone || this.response.destroyed) return;
    if (!this.response.write(data)) {
      await new Promise((resolve) => this.response.once('drain', resolve).once('close', resolve));
    }
  }

  release(): void {
    this.response.off('close', this.onClose);
  }
}

/** Forwards an upstream SSE stream event by event as it arrives, keeping only counters. */
export async function relayStream(
  upstream: UpstreamResponse,
  reply: FastifyReply,
  options: { format: StreamFormat; input: RelayInput; startedAt: number; abort: AbortController },
): Promise<StreamOutcome> {
  const outcome: StreamOutcome = {
    usage: undefined,
    countedCompletionTokens: 0,
    firstByteMs: undefined,
    clientGone: false,
  };
  const client = new ClientLink(reply.raw, options.abort);
  const splitter = new SseSplitter();
  const tally = new TextTally();
  const forward = (event: string) => forwardEvent(event, outcome, tally, options, (text) => client.write(text));
  try {
    for await (const chunk of upstream.body) {
      outcome.firstByteMs ??= Date.now() - options.startedAt;
      for (const event of splitter.push(chunk)) await forward(event);
      if (client.gone) break;
    }
    for (const event of splitter.finish()) await forward(event);
  } catch (error) {
    if (!client.gone) {
      outcome.failure = error;
      const message = error instanceof Error ? error.message : 'the upstream stream broke off';
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

async function forwardEvent(
  event: string,
  outcome: StreamOutcome,
  tally: TextTally,
  options: { format: StreamFormat; input: RelayInput },
  write: (text: string) => Promise<void>,
): Promise<void> {
  const data = eventData(event);
  let parsed: unknown;
  if (data !== undefined && data !== '[DONE]') {
    try {
      parsed = JSON.parse(data);
    } catch {
      // Not JSON: forwarded as is.
    }
  }
  if (isObject(parsed)) {
    const usage = options.format.usageOf(parsed);
    if (usage) outcome.usage = usage;
    tally.push(options.format.textOf(parsed));
    const replacement = options.format.rewrite?.(parsed, options.input);
    if (replacement === null) return;
    if (replacement !== undefined) {
      await write(`data: ${JSON.stringify(replacement)}\n\n`);
      return;
    }
  }
  await write(`${event}\n\n`);
}

/**
 * Forwards a binary body (audio) chunk by chunk with the upstream's content type. An upstream
 * that breaks off mid-way cuts the client's connection too, so a truncated file is not taken
 * for a whole one.
 */
export async function relayBytes(
  upstream: UpstreamResponse,
  reply: FastifyReply,
  options: { requestId: string; startedAt: number; abort: AbortController },
): Promise<TransferOutcome> {
  const contentType = upstream.headers['content-type'];
  reply.hijack();
  reply.raw.writeHead(upstream.status, {
    'content-type': typeof contentType === 'string' ? contentType : 'application/octet-stream',
    ...requestIdHeaders(options.requestId),
  });
  const outcome: TransferOutcome = { firstByteMs: undefined, clientGone: false };
  const client = new ClientLink(reply.raw, options.abort);
  try {
    for await (const chunk of upstream.body) {
      outcome.firstByteMs ??= Date.now() - options.startedAt;
      await client.write(chunk);
      if (client.gone) break;
    }
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
