import { randomBytes } from 'node:crypto';
import { AppError } from '../../platform/errors.js';
import { countChatPromptTokens, countTextTokens, TextTally } from '../billing/metering.js';
import type { Usage } from '../billing/quota.js';
import { withChannelParameters } from '../providers/channel-parameters.js';
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
import { withInlineImages } from './inline-images.js';
import { translationSettings } from './settings.js';
import { wantsImageUrls, withStoredImages } from './stored-images.js';
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
  if (prompt) {
    // Anthropic-style reads are also listed as `cached_tokens` for OpenAI clients: billed once, as reads.
    const cached = prompt.cached_read_tokens ? { cached_read_tokens: prompt.cached_read_tokens } : undefined;
    const details = {
      ...(cached ?? (prompt.cached_tokens ? { cached_tokens: prompt.cached_tokens } : {})),
      ...positiveCounts(prompt, ['audio_tokens', 'cached_write_tokens', 'text_tokens', 'image_tokens']),
    };
    if (Object.keys(details).length > 0) result.prompt_tokens_details = details;
  }
  const completion = usage.completion_tokens_details;
  if (completion) {
    const details = positiveCounts(completion, ['reasoning_tokens', 'audio_tokens', 'text_tokens', 'image_tokens']);
    if (Object.keys(details).length > 0) result.completion_tokens_details = details;
  }
  return result;
}

/** The named counts that are positive numbers. */
function positiveCounts<T extends object, K extends keyof T & string>(
  details: T,
  names: K[],
): Partial<Record<K, number>> {
  const counts: Partial<Record<K, number>> = {};
  for (const name of names) {
    const value = details[name];
    if (typeof value === 'number' && value > 0) counts[name] = value;
  }
  return counts;
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
    parameters: channel.custom_parameter,
    stream: attempt.input.stream,
    now: Math.floor(attempt.startedAt / 1000),
    responseId: `chatcmpl-${randomBytes(12).toString('base64url')}`,
    settings: translationSettings(deps.options),
  };
}

/** Error answers read in the channel adapter's own format (keywords only for the gateway's own requests). */
export const adapterFailure =
  (call: ExchangeCall): FailureReader =>
  (status, body) =>
    classifyAdapterError(call.adapter, status, body, call.trustedKeywords);

/**
 * Builds the channel's request, its JSON body with the channel's parameters (custom_parameter)
 * merged in whatever the provider; a request that cannot be built is the channel's failure.
 */
export async function built(build: () => UpstreamCall | Promise<UpstreamCall>, call: ExchangeCall) {
  let upstreamCall: UpstreamCall;
  try {
    // e.g. a Vertex token that could not be had, or a request this provider cannot take.
    upstreamCall = await build();
  } catch (error) {
    return buildFailure(error);
  }
  const { channel } = call;
  return { ...withChannelParameters(upstreamCall, channel.custom_parameter, call.upstreamModel), proxy: channel.proxy };
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
  const asked = chatRequestOf(attempt.input, surface);
  const chat = adapter.inlineImages && call.deps.images ? await withInlineImages(asked, call.deps.images) : asked;
  const context = contextFor(call);
  const sent = await built(() => adapter.buildChat({ ...chat, model: call.upstreamModel }, context), call);
  if (isFailure(sent)) return sent;
  if (!attempt.input.stream) {
    const answer = await fetchAnswer(call.deps, sent, adapterFailure(call));
    if (isFailure(answer)) return answer;
    const reportedStatus = adapter.errorStatus?.(answer.body);
    if (reportedStatus !== undefined) return adapterFailure(call)(reportedStatus, answer.body);
    let completion: ChatCompletion;
    try {
      const finished = adapter.awaitChat
        ? await adapter.awaitChat(answer.body, context, followUpsOf(call))
        : answer.body;
      completion = adapter.parseChat(finished, context);
    } catch (error) {
      return parseFailure(error);
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

/** A follow-up's failure as it came; an AppError with its status (a job that failed); else a malformed answer. */
function parseFailure(error: unknown): UpstreamFailure {
  if (error instanceof FollowUpFailed) return error.failure;
  if (error instanceof AppError) return buildFailure(error);
  return malformedAnswer(error instanceof Error ? error.message : String(error));
}

const isBinary = (answer: Json | BinaryAnswer): answer is BinaryAnswer => Buffer.isBuffer(answer.bytes);

/**
 * A non-chat endpoint (embeddings, rerank, images, speech) on an upstream of another format: the
 * OpenAI-shaped body is translated, sent whole (jobs polled to their end), and the answer
 * translated back, as JSON the endpoint bills on, or as bytes billed on the request (speech) and
 * on the text they hold where the endpoint counts it (transcripts).
 */
export const translatedWhole: Exchange = async (call) => {
  const { attempt, endpoint } = call;
  const whole = wholeAdapterOf(call);
  const context = contextFor(call);
  const request: Json = { ...attempt.input.fields, model: call.upstreamModel };
  const sent = await built(() => whole.build(request, context, attempt.input.form), call);
  if (isFailure(sent)) return sent;
  const answer = await fetchAnswer(call.deps, sent, adapterFailure(call));
  if (isFailure(answer)) return answer;
  const reportedStatus = whole.errorStatus?.(answer.body);
  if (reportedStatus !== undefined) return adapterFailure(call)(reportedStatus, answer.body);
  let body: Json | BinaryAnswer;
  const follow = followUpsOf(call);
  try {
    body = await whole.parse(answer.body, context, follow, request);
  } catch (error) {
    return parseFailure(error);
  }
  const storage = call.deps.imageStorage;
  if (storage && !isBinary(body) && wantsImageUrls(endpoint.path, request)) {
    body = await withStoredImages(body, { storage, adapter: whole, context, follow });
  }
  // Without reported usage: the request's count, and what the answer holds where the endpoint counts it (transcripts).
  const countedUsage = (bytes: () => Buffer, contentType: string) => ({
    prompt_tokens: endpoint.countPrompt(attempt.input, call.billedModel),
    completion_tokens: endpoint.countCompletion?.(bytes(), contentType) ?? 0,
  });
  if (isBinary(body)) {
    const { bytes, contentType } = body;
    return { kind: 'whole', status: 200, contentType, body: bytes, usage: countedUsage(() => bytes, contentType) };
  }
  const text = JSON.stringify(body);
  const usage = endpoint.usageOf(body) ?? countedUsage(() => Buffer.from(text), JSON_TYPE);
  return { kind: 'whole', status: 200, contentType: JSON_TYPE, body: text, usage };
};
