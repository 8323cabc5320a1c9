import type { FastifyReply, FastifyRequest } from 'fastify';
import { settledQuota, type Usage } from './billing/quota.js';
import { consumeLogRow } from './consume-log.js';
import { type Endpoint, parsedJson } from './endpoint.js';
import { readBody, type UpstreamResponse } from './executor.js';
import type { Reservation } from './ledger.js';
import type { Attempt, RelayDeps } from './pipeline.js';
import { prepareRequest } from './providers/openai/request.js';
import { relayBytes, relayStream, streamHeaders } from './respond.js';
import type { RouterChannel } from './router.js';
import { classifyUpstreamError, networkFailure, type UpstreamFailure } from './upstream-errors.js';

/**
 * One call to one channel: send, then either hand back the failure (for the retry loop) or
 * answer the client in the endpoint's format and settle the reservation on the usage.
 */

const MAX_UPSTREAM_BODY = 64 * 1024 * 1024;
const MAX_ERROR_BODY = 1024 * 1024;

/** Settles the reservation on `usage` and writes the consume log. */
type Finish = (usage: Usage, firstByteMs: number | undefined, clientGone: boolean) => Promise<void>;

interface Call {
  deps: RelayDeps;
  endpoint: Endpoint;
  attempt: Attempt;
  billedModel: string;
  upstream: UpstreamResponse;
  abort: AbortController;
  request: FastifyRequest;
  reply: FastifyReply;
  finish: Finish;
}

export async function tryChannel(
  deps: RelayDeps,
  endpoint: Endpoint,
  attempt: Attempt,
  channel: RouterChannel,
  reservation: Reservation,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<UpstreamFailure | undefined> {
  const prepared = prepareRequest(channel, deps.baseUrlOf(channel), endpoint.path, attempt.input);
  const abort = new AbortController();
  let upstream: UpstreamResponse;
  try {
    upstream = await deps.upstream.send({ ...prepared, proxy: channel.proxy, signal: abort.signal });
  } catch (error) {
    return networkFailure(error);
  }
  if (upstream.status >= 400) return upstreamFailure(deps, upstream);
  const finish = settlement(deps, attempt, channel, reservation, request, prepared.billedModel);
  const call: Call = {
    deps,
    endpoint,
    attempt,
    billedModel: prepared.billedModel,
    upstream,
    abort,
    request,
    reply,
    finish,
  };
  if (attempt.input.stream && endpoint.stream) {
    await answerStream(call);
    return undefined;
  }
  if (endpoint.output === 'binary') {
    await answerBytes(call);
    return undefined;
  }
  return answerWhole(call);
}

async function upstreamFailure(deps: RelayDeps, upstream: UpstreamResponse): Promise<UpstreamFailure> {
  const text = (await readBody(upstream.body, MAX_ERROR_BODY).catch(() => Buffer.alloc(0))).toString('utf8');
  const keywords = deps.options
    .get('DisableChannelKeywords')
    .split('\n')
    .map((line) => line.trim());
  return classifyUpstreamError(upstream.status, text, keywords);
}

function settlement(
  deps: RelayDeps,
  attempt: Attempt,
  channel: RouterChannel,
  reservation: Reservation,
  request: FastifyRequest,
  billedModel: string,
): Finish {
  const price = deps.prices.lookup(billedModel);
  return async (usage, firstByteMs, clientGone) => {
    const settled = settledQuota({ price, groupRatio: attempt.groupRatio, usage });
    const { charged, shortfall } = await deps.ledger.settle(reservation, settled.quota, channel.id);
    if (!deps.options.getBoolean('LogConsumeEnabled')) return;
    deps.writeLog(
      consumeLogRow({
        caller: attempt.caller,
        requestId: request.id,
        sourceIp: request.ip,
        model: billedModel,
        channelId: channel.id,
        group: attempt.group,
        groupRatio: attempt.groupRatio,
        price,
        settled,
        usage,
        charged,
        shortfall,
        startedAt: attempt.startedAt,
        firstByteMs,
        stream: attempt.input.stream,
        clientGone,
      }),
    );
  };
}

/** Server-sent events, billed on the usage event or, failing that, on what was counted. */
async function answerStream(call: Call): Promise<void> {
  const { endpoint, attempt, reply, request } = call;
  const format = endpoint.stream;
  if (!format) return;
  reply.hijack();
  reply.raw.writeHead(200, streamHeaders(request.id));
  const outcome = await relayStream(call.upstream, reply, {
    format,
    input: attempt.input,
    startedAt: attempt.startedAt,
    abort: call.abort,
  });
  // Bill what was produced, also when the client left or the upstream broke off mid-stream.
  const usage = outcome.usage ?? {
    prompt_tokens: endpoint.countPrompt(attempt.input, call.billedModel),
    completion_tokens: outcome.countedCompletionTokens,
  };
  await call.finish(usage, outcome.firstByteMs, outcome.clientGone);
  if (outcome.failure) call.deps.logger.warn({ err: outcome.failure }, 'upstream stream broke off');
}

/** Binary bodies (speech) are billed on the request alone, whatever happens to the transfer. */
async function answerBytes(call: Call): Promise<void> {
  const { endpoint, attempt } = call;
  const outcome = await relayBytes(call.upstream, call.reply, {
    requestId: call.request.id,
    startedAt: attempt.startedAt,
    abort: call.abort,
  });
  const usage = { prompt_tokens: endpoint.countPrompt(attempt.input, call.billedModel), completion_tokens: 0 };
  await call.finish(usage, outcome.firstByteMs, outcome.clientGone);
  if (outcome.failure) call.deps.logger.warn({ err: outcome.failure }, 'upstream body broke off');
}

/** A whole body (JSON, or a transcript as text), billed on its usage or on our own count. */
async function answerWhole(call: Call): Promise<UpstreamFailure | undefined> {
  const { endpoint, attempt, upstream } = call;
  let raw: Buffer;
  try {
    raw = await readBody(upstream.body, MAX_UPSTREAM_BODY);
  } catch (error) {
    return networkFailure(error);
  }
  const firstByteMs = Date.now() - attempt.startedAt;
  const header = upstream.headers['content-type'];
  const contentType = typeof header === 'string' ? header : 'application/json';
  const usage = endpoint.usageOf(parsedJson(raw)) ?? {
    prompt_tokens: endpoint.countPrompt(attempt.input, call.billedModel),
    completion_tokens: endpoint.countCompletion?.(raw, contentType) ?? 0,
  };
  // Answer first: settling may take a round trip to the shared ledger.
  call.reply.status(upstream.status).header('content-type', contentType).send(raw);
  await call.finish(usage, firstByteMs, false);
  return undefined;
}
