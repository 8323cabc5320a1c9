import { randomBytes } from 'node:crypto';
import { AppError } from '../../platform/errors.js';
import { countChatPromptTokens, countTextTokens, TextTally } from '../billing/metering.js';
import type { Usage } from '../billing/quota.js';
import type {
  AdapterContext,
  BinaryAnswer,
  ChatChunk,
  ChatCompletion,
  ChatRequest,
  ChatUsage,
  FollowUp,
  Json,
  UpstreamCall,
  WholeBodyAdapter,
  WholeEndpointPath,
} from '../providers/types.js';
import { eventStreamAnswer, type FailureReader, fetchAnswer, openAnswer } from './call.js';
import type { Exchange, ExchangeCall, RelayInput, SurfaceBinding } from './types.js';
import {
  buildFailure,
  classifyAdapterError,
  isFailure,
  malformedAnswer,
  type UpstreamFailure,
} from './upstream-errors.js';

/**
 * A call that crosses wire formats: the client's surface (OpenAI chat, Anthropic Messages, Gemini,
 * Responses) is translated to the canonical OpenAI chat shape, the channel's adapter builds its own
 * request from that and reads its own answer back, and the surface turns the canonical answer
 * into the client's format. Streams are translated chunk by chunk, never gathered.
 */

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The canonical request of a relay input; computed once per request, whatever the retries. */
export function chatRequestOf(input: RelayInput, surface: SurfaceBinding): ChatRequest {
  if (input.chat) return input.chat;
  try {
    const chat = surface.translator.toChat(input.fields, input.model);
    // Only the route knows whether the client streams (Gemini says it in the path).
    chat.stream = input.stream;
    input.chat = chat;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'the request is not valid';
    const param = /^([\w.[\]]+):/.exec(message)?.[1];
    throw new AppError('bad_request', message, param ? { details: { param } } : {});
  }
  return input.chat;
}

export function billingUsage(usage: ChatUsage | null | undefined): Usage | undefined {
  if (!usage || usage.prompt_tokens + usage.completion_tokens <= 0) return undefined;
  const result: Usage = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens };
  const prompt = usage.prompt_tokens_details;
  if (
    prompt &&
    (prompt.cached_tokens || prompt.audio_tokens || prompt.cached_write_tokens || prompt.cached_read_tokens)
  ) {
    // Anthropic-style reads are also listed as `cached_tokens` for OpenAI clients: billed once, as reads.
    const cached = prompt.cached_read_tokens ? { cached_read_tokens: prompt.cached_read_tokens } : undefined;
    result.prompt_tokens_details = {
      ...(cached ?? (prompt.cached_tokens ? { cached_tokens: prompt.cached_tokens } : {})),
      ...(prompt.audio_tokens ? { audio_tokens: prompt.audio_tokens } : {}),
      ...(prompt.cached_write_tokens ? { cached_write_tokens: prompt.cached_write_tokens } : {}),
    };
  }
  const completion = usage.completion_tokens_details;
  if (completion && (completion.reasoning_tokens || completion.audio_tokens)) {
    result.completion_tokens_details = {
      ...(completion.reasoning_tokens ? { reasoning_tokens: completion.reasoning_tokens } : {}),
      ...(completion.audio_tokens ? { audio_tokens: completion.audio_tokens } : {}),
    };
  }
  return result;
}

/** Generated text of a chunk (content, reasoning and tool arguments), for counting without usage. */
function chunkText(chunk: ChatChunk): string {
  let text = '';
  for (const choice of chunk.choices) {
    const { delta } = choice;
    if (typeof delta.content === 'string') text += delta.content;
    if (typeof delta.reasoning_content === 'string') text += delta.reasoning_content;
    for (const call of delta.tool_calls ?? []) text += (call.function.name ?? '') + (call.function.arguments ?? '');
  }
  return text;
}

export function completionText(completion: ChatCompletion): string {
  let text = '';
  for (const { message } of completion.choices) {
    text += (message.content ?? '') + (message.reasoning_content ?? '');
    for (const call of message.tool_calls ?? []) text += call.function.name + call.function.arguments;
  }
  return text;
}

/** What the channel's adapter is told of the call. */
export function contextFor(call: ExchangeCall): AdapterContext {
  const { channel, deps, attempt } = call;
  return {
    key: channel.key,
    channelType: channel.type,
    baseUrl: deps.baseUrlOf(channel).replace(/\/+$/, ''),
    upstreamModel: call.upstreamModel,
    other: channel.other,
    plugin: channel.plugin,
    headers: channel.model_headers,
    stream: attempt.input.stream,
    now: Math.floor(attempt.startedAt / 1000),
    responseId: `chatcmpl-${randomBytes(12).toString('base64url')}`,
  };
}

/** Error answers read in the channel adapter's own format (keywords only for the gateway's own requests). */
export const adapterFailure =
  (call: ExchangeCall): FailureReader =>
  (status, body) =>
    classifyAdapterError(call.adapter, status, body, call.trustedKeywords);

/** Builds the channel's request; a request that cannot be built is the channel's failure. */
export async function built(build: () => UpstreamCall | Promise<UpstreamCall>, call: ExchangeCall) {
  try {
    // e.g. a Vertex token that could not be had, or a request this provider cannot take.
    return { ...(await build()), proxy: call.channel.proxy };
  } catch (error) {
    return buildFailure(error);
  }
}

/** The surface of a chat endpoint (the lookup gives this exchange chat endpoints only). */
export function surfaceOf(call: ExchangeCall): SurfaceBinding {
  const { surface } = call.endpoint;
  if (!surface) throw new Error(`${call.endpoint.path} is not a chat endpoint`);
  return surface;
}

/** A chat translated to the channel's format and its answer back to the client's. */
export const translatedChat: Exchange = async (call) => {
  const { attempt, adapter } = call;
  const surface = surfaceOf(call);
  const chat = chatRequestOf(attempt.input, surface);
  const context = contextFor(call);
  const sent = await built(() => adapter.buildChat({ ...chat, model: call.upstreamModel }, context), call);
  if (isFailure(sent)) return sent;
  if (!attempt.input.stream) {
    const answer = await fetchAnswer(call.deps, sent, adapterFailure(call));
    if (isFailure(answer)) return answer;
    let completion: ChatCompletion;
    try {
      completion = adapter.parseChat(answer.body, context);
    } catch (error) {
      return malformedAnswer(error instanceof Error ? error.message : String(error));
    }
    const usage = billingUsage(completion.usage) ?? {
      prompt_tokens: countChatPromptTokens(chat),
      completion_tokens: countTextTokens(completionText(completion)),
    };
    const body = surface.translator.fromChat(completion, attempt.input.model, chat);
    return { kind: 'whole', status: 200, contentType: JSON_TYPE, body: JSON.stringify(body), usage };
  }
  const upstream = await openAnswer(call.deps, sent, adapterFailure(call));
  if (isFailure(upstream)) return upstream;
  const encoder = surface.encoderFor?.(attempt.input) ?? surface.translator.encodeStream(attempt.input.model, chat);
  const decoder = adapter.decodeStream(context);
  // Only counters are kept: the last usage seen, and the text for counting when none comes.
  let streamedUsage: ChatUsage | undefined;
  const tally = new TextTally();
  const encode = (chunks: ChatChunk[]) => {
    let text = '';
    for (const chunk of chunks) {
      if (chunk.usage) streamedUsage = chunk.usage;
      tally.push(chunkText(chunk));
      text += encoder.push(chunk);
    }
    return text;
  };
  return eventStreamAnswer(upstream, {
    chunk(bytes, client) {
      const text = encode(decoder.push(bytes));
      return text.length > 0 ? client.write(text) : undefined;
    },
    end: () => encode(decoder.end()) + encoder.end(streamedUsage),
    fail: (message) => encoder.fail?.(message) ?? surface.streamError(message),
    usage: () =>
      billingUsage(streamedUsage) ?? { prompt_tokens: countChatPromptTokens(chat), completion_tokens: tally.total() },
  });
};

/** The adapter's translation of a non-chat endpoint; the lookup checked it has one. */
function wholeAdapterOf(call: ExchangeCall): WholeBodyAdapter {
  const whole = call.adapter.endpoints?.[call.endpoint.path as WholeEndpointPath];
  if (!whole) throw new Error(`the channel's adapter does not serve ${call.endpoint.path}`);
  return whole;
}

/** A follow-up call that failed: the exchange ends as this failure (see `followUpsOf`). */
class FollowUpFailed extends Error {
  constructor(readonly failure: UpstreamFailure) {
    super(failure.error.message);
  }
}

/** Follow-up calls of one exchange, through the executor and the channel's proxy. */
function followUpsOf(call: ExchangeCall): FollowUp {
  return async (followUp) => {
    const answer = await fetchAnswer(call.deps, { ...followUp, proxy: call.channel.proxy }, adapterFailure(call));
    if (isFailure(answer)) throw new FollowUpFailed(answer);
    return answer;
  };
}

const isBinary = (answer: Json | BinaryAnswer): answer is BinaryAnswer => Buffer.isBuffer(answer.bytes);

/**
 * A non-chat endpoint (embeddings, rerank, images, speech) on an upstream of another format: the
 * OpenAI-shaped body is translated, sent whole (jobs polled to their end), and the answer
 * translated back, as JSON the endpoint bills on, or as bytes billed on the request (speech).
 */
export const translatedWhole: Exchange = async (call) => {
  const { attempt, endpoint } = call;
  const whole = wholeAdapterOf(call);
  const context = contextFor(call);
  const sent = await built(() => whole.build({ ...attempt.input.fields, model: call.upstreamModel }, context), call);
  if (isFailure(sent)) return sent;
  const answer = await fetchAnswer(call.deps, sent, adapterFailure(call));
  if (isFailure(answer)) return answer;
  let body: Json | BinaryAnswer;
  try {
    body = await whole.parse(answer.body, context, followUpsOf(call));
  } catch (error) {
    if (error instanceof FollowUpFailed) return error.failure;
    return malformedAnswer(error instanceof Error ? error.message : String(error));
  }
  const requestUsage = () => ({
    prompt_tokens: endpoint.countPrompt(attempt.input, call.billedModel),
    completion_tokens: 0,
  });
  if (isBinary(body)) {
    return { kind: 'whole', status: 200, contentType: body.contentType, body: body.bytes, usage: requestUsage() };
  }
  const usage = endpoint.usageOf(body) ?? requestUsage();
  return { kind: 'whole', status: 200, contentType: JSON_TYPE, body: JSON.stringify(body), usage };
};
