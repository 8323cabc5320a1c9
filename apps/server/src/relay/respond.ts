import type { FastifyReply } from 'fastify';
import type { Usage } from './billing/quota.js';
import type { UpstreamResponse } from './executor.js';
import { countTextTokens } from './metering.js';
import { eventData, SseSplitter } from './sse.js';

export interface StreamOutcome {
  usage: Usage | undefined;
  /** Completion tokens counted from the streamed text, for upstreams that report no usage. */
  countedCompletionTokens: number;
  firstByteMs: number | undefined;
  /** The client went away before the end; the upstream was stopped. */
  clientGone: boolean;
  /** The upstream broke off mid-stream; the client was sent an error event. */
  failure?: unknown;
}

function chunkText(chunk: { choices?: Array<{ delta?: Record<string, unknown>; text?: unknown }> }): string {
  let text = '';
  for (const choice of chunk.choices ?? []) {
    if (typeof choice.text === 'string') text += choice.text;
    const delta = choice.delta;
    if (!delta) continue;
    for (const field of ['content', 'reasoning_content', 'refusal'] as const) {
      if (typeof delta[field] === 'string') text += delta[field];
    }
    if (Array.isArray(delta.tool_calls)) text += JSON.stringify(delta.tool_calls);
  }
  return text;
}

export function streamHeaders(requestId: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': requestId,
    'x-oneapi-request-id': requestId,
  };
}

/**
 * Forwards an upstream SSE stream event by event as it arrives, keeping only counters. Waits for
 * the client to drain before reading more, so a slow client cannot make the server buffer.
 */
export async function relayStream(
  upstream: UpstreamResponse,
  reply: FastifyReply,
  options: { forwardUsage: boolean; startedAt: number; abort: AbortController },
): Promise<StreamOutcome> {
  const response = reply.raw;
  const outcome: StreamOutcome = {
    usage: undefined,
    countedCompletionTokens: 0,
    firstByteMs: undefined,
    clientGone: false,
  };
  const splitter = new SseSplitter();
  const onClose = () => {
    if (!response.writableFinished) {
      outcome.clientGone = true;
      options.abort.abort();
    }
  };
  response.once('close', onClose);
  const write = async (text: string) => {
    if (outcome.clientGone || response.destroyed) return;
    if (!response.write(text)) await new Promise((resolve) => response.once('drain', resolve).once('close', resolve));
  };
  try {
    for await (const chunk of upstream.body) {
      outcome.firstByteMs ??= Date.now() - options.startedAt;
      for (const event of splitter.push(chunk)) await forwardEvent(event, outcome, options.forwardUsage, write);
      if (outcome.clientGone) break;
    }
    for (const event of splitter.finish()) await forwardEvent(event, outcome, options.forwardUsage, write);
  } catch (error) {
    if (!outcome.clientGone) {
      outcome.failure = error;
      const message = error instanceof Error ? error.message : 'the upstream stream broke off';
      await write(`data: ${JSON.stringify({ error: { message, type: 'upstream_error' } })}\n\n`);
    }
  } finally {
    response.off('close', onClose);
  }
  if (!outcome.clientGone) response.end();
  return outcome;
}

async function forwardEvent(
  event: string,
  outcome: StreamOutcome,
  forwardUsage: boolean,
  write: (text: string) => Promise<void>,
): Promise<void> {
  const data = eventData(event);
  if (data !== undefined && data !== '[DONE]') {
    try {
      const chunk = JSON.parse(data) as { usage?: Usage | null; choices?: [] };
      if (chunk.usage) outcome.usage = chunk.usage;
      outcome.countedCompletionTokens += countTextTokens(chunkText(chunk));
      // The usage-only chunk exists because we asked for it; pass it on only if the client did too.
      if (chunk.usage && (chunk.choices ?? []).length === 0 && !forwardUsage) return;
      if (chunk.usage && !forwardUsage) {
        delete chunk.usage;
        await write(`data: ${JSON.stringify(chunk)}\n\n`);
        return;
      }
    } catch {
      // Not JSON: forward as is.
    }
  }
  await write(`${event}\n\n`);
}
