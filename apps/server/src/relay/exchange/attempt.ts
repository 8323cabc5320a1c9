import type { RelayHttpReply, RelayHttpRequest } from '../../http/direct-routes.js';
import { AppError } from '../../platform/errors.js';
import { consumeLogRow } from '../billing/consume-log.js';
import type { Reservation } from '../billing/ledger.js';
import { settledQuota } from '../billing/quota.js';
import { unpricedModelRefusal } from '../billing/unpriced.js';
import { chatAdapterFor } from '../providers/adapters.js';
import { openAiAdapter } from '../providers/openai/adapter.js';
import { mapModel, prepareRequest } from '../providers/openai/request.js';
import type { RouterChannel } from '../routing/router.js';
import type { StreamedResponse, WholeResponse } from '../transport/executor.js';
import { relayBytes, relayStream, sendWhole, streamHeaders } from '../transport/respond.js';
import {
  type ChatCall,
  type Finish,
  malformedAnswer,
  openAiChatSurface,
  tryChatExchange,
  tryNativeExchange,
  tryWholeExchange,
} from './chat-exchange.js';
import { type Endpoint, parsedJson } from './endpoint.js';
import type { Attempt, RelayDeps } from './pipeline.js';
import { classifyUpstreamError, networkFailure, type UpstreamFailure } from './upstream-errors.js';

/**
 * One call to one channel: send, then either hand back the failure (for the retry loop) or
 * answer the client in the endpoint's format and settle the reservation on the usage.
 */

const MAX_UPSTREAM_BODY = 64 * 1024 * 1024;
const MAX_ERROR_BODY = 1024 * 1024;

interface Call {
  deps: RelayDeps;
  endpoint: Endpoint;
  attempt: Attempt;
  billedModel: string;
  upstream: StreamedResponse;
  request: RelayHttpRequest;
  reply: RelayHttpReply;
  finish: Finish;
}

export async function tryChannel(
  deps: RelayDeps,
  endpoint: Endpoint,
  attempt: Attempt,
  channel: RouterChannel,
  reservation: Reservation,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
): Promise<UpstreamFailure | undefined> {
  const refused = unpricedOn(deps, attempt, channel);
  if (refused) return refused;
  const adapter = chatAdapterFor(channel.type);
  const servedNatively = endpoint.chat?.servedBy?.has(channel.type) ?? false;
  if (!servedNatively && (endpoint.chat?.surface || adapter)) {
    if (!endpoint.chat) {
      const whole = adapter?.endpoints?.[endpoint.path as '/v1/embeddings' | '/v1/rerank'];
      if (!adapter || !whole || attempt.input.stream) return unsupported(endpoint, channel);
      return tryWholeExchange(
        {
          deps,
          attempt,
          adapter,
          channel,
          request,
          reply,
          finishFor: (billed) => settlement(deps, attempt, channel, reservation, request, billed),
        },
        endpoint,
        whole,
      );
    }
    const call: ChatCall = {
      deps,
      attempt,
      surface: endpoint.chat.surface ?? openAiChatSurface,
      adapter: adapter ?? openAiAdapter,
      channel,
      request,
      reply,
      finishFor: (billedModel) => settlement(deps, attempt, channel, reservation, request, billedModel),
    };
    const native = call.surface.nativeFor?.(channel.type, mapModel(channel, attempt.input.model).upstreamModel);
    return native ? tryNativeExchange(call, native) : tryChatExchange(call);
  }
  const prepared = prepareRequest(channel, deps.baseUrlOf(channel), endpoint.path, attempt.input);
  const streamed = attempt.input.stream && endpoint.stream !== undefined;
  const finish = () => settlement(deps, attempt, channel, reservation, request, prepared.billedModel);
  if (!streamed && endpoint.output === 'json') {
    let answer: WholeResponse;
    try {
      answer = await deps.upstream.fetchWhole({ ...prepared, proxy: channel.proxy }, MAX_UPSTREAM_BODY);
    } catch (error) {
      return networkFailure(error);
    }
    if (answer.status >= 400) return failureOf(answer.status, answer.body.subarray(0, MAX_ERROR_BODY));
    const parsed = parsedJson(answer.body);
    // A 2xx that is not the endpoint's answer (a proxy's HTML page, another API's JSON) is the
    // channel's failure: nothing is sent or charged, and another channel may answer properly.
    if (endpoint.isAnswer && !endpoint.isAnswer(parsed)) {
      return malformedAnswer(parsed === undefined ? 'the body is not JSON' : `it is not a ${endpoint.path} answer`);
    }
    await answerWhole(endpoint, attempt, prepared.billedModel, answer, parsed, request, reply, finish());
    return undefined;
  }
  let upstream: StreamedResponse;
  try {
    upstream = await deps.upstream.openStream({ ...prepared, proxy: channel.proxy });
  } catch (error) {
    return networkFailure(error);
  }
  const failed = await openingFailure(upstream, streamed);
  if (failed) return failed;
  const call: Call = {
    deps,
    endpoint,
    attempt,
    billedModel: prepared.billedModel,
    upstream,
    request,
    reply,
    finish: finish(),
  };
  if (streamed) await answerStream(call);
  else await answerBytes(call);
  return undefined;
}

/** JSON or HTML where server-sent events were asked for; vendors differ on the rest (or send none). */
function notEventStream(header: string | string[] | undefined): boolean {
  const contentType = (Array.isArray(header) ? header[0] : header)?.toLowerCase() ?? '';
  return contentType.includes('json') || contentType.includes('html');
}

/** The channel's failure, read from an answer's status and headers before anything is sent. */
async function openingFailure(upstream: StreamedResponse, streamed: boolean): Promise<UpstreamFailure | undefined> {
  const readError = () => upstream.readAll(MAX_ERROR_BODY).catch(() => Buffer.alloc(0));
  if (upstream.status >= 400) return failureOf(upstream.status, await readError());
  if (!streamed || !notEventStream(upstream.headers['content-type'])) return undefined;
  // A JSON error or a proxy's page in place of the stream is the channel's failure, not a 200
  // stream of garbage the client is charged for; another channel may answer properly.
  const text = await readError();
  const parsed = parsedJson(text);
  if (parsed && typeof parsed === 'object' && 'error' in parsed) return failureOf(502, text);
  return malformedAnswer('a stream was asked for and the answer is not an event stream');
}

/**
 * A retry's channel may map the model to another, unpriced one; with unpriced models refused it is
 * skipped unsent, like a channel that cannot serve the endpoint (the first channel was checked
 * before the reservation).
 */
function unpricedOn(deps: RelayDeps, attempt: Attempt, channel: RouterChannel): UpstreamFailure | undefined {
  const { billedModel } = mapModel(channel, attempt.input.model);
  const error = unpricedModelRefusal(deps.options, deps.prices.lookup(billedModel), billedModel);
  return error && { error, retry: true, disable: false, coolDown: false };
}

/** This channel's upstream has no such endpoint; another channel may. */
function unsupported(endpoint: Endpoint, channel: RouterChannel): UpstreamFailure {
  const error = new AppError('bad_request', `channel #${channel.id} (${channel.name}) cannot serve ${endpoint.path}`, {
    details: { code: 'unsupported_endpoint' },
  });
  return { error, retry: true, disable: false, coolDown: false };
}

/** Disable keywords are not searched here: an error message may repeat the client's input (upstream-errors.ts). */
function failureOf(status: number, body: Buffer): UpstreamFailure {
  return classifyUpstreamError(status, body.toString('utf8'));
}

function settlement(
  deps: RelayDeps,
  attempt: Attempt,
  channel: RouterChannel,
  reservation: Reservation,
  request: RelayHttpRequest,
  billedModel: string,
): Finish {
  const price = deps.prices.lookup(billedModel);
  return async (usage, firstByteMs, clientGone) => {
    const settled = settledQuota({ price, groupRatio: attempt.groupRatio, usage });
    const { charged, shortfall, balance } = await deps.ledger.settle(reservation, settled.quota, channel.id);
    if (balance !== undefined && charged > 0) deps.remindLowBalance(reservation.userId, balance + charged, balance);
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
  });
  const usage = { prompt_tokens: endpoint.countPrompt(attempt.input, call.billedModel), completion_tokens: 0 };
  await call.finish(usage, outcome.firstByteMs, outcome.clientGone);
  if (outcome.failure) call.deps.logger.warn({ err: outcome.failure }, 'upstream body broke off');
}

/** A whole body (JSON, or a transcript as text), billed on its usage or on our own count. */
async function answerWhole(
  endpoint: Endpoint,
  attempt: Attempt,
  billedModel: string,
  answer: WholeResponse,
  parsed: unknown,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  finish: Finish,
): Promise<void> {
  const firstByteMs = Date.now() - attempt.startedAt;
  const header = answer.headers['content-type'];
  const contentType = typeof header === 'string' ? header : 'application/json';
  const usage = endpoint.usageOf(parsed) ?? {
    prompt_tokens: endpoint.countPrompt(attempt.input, billedModel),
    completion_tokens: endpoint.countCompletion?.(answer.body, contentType) ?? 0,
  };
  // Answer first: settling may take a round trip to the shared ledger.
  sendWhole(reply, request.id, answer.status, contentType, answer.body);
  await finish(usage, firstByteMs, false);
}
