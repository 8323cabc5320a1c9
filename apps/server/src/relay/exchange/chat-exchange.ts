import { randomBytes } from 'node:crypto';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/direct-routes.js';
import { AppError } from '../../platform/errors.js';
import { countChatPromptTokens, countTextTokens, TextTally } from '../billing/metering.js';
import type { Usage } from '../billing/quota.js';
import { openAiStreamEncoder, openAiSurface } from '../providers/openai/adapter.js';
import { mapModel } from '../providers/openai/request.js';
import type {
  AdapterContext,
  ChatAdapter,
  ChatChunk,
  ChatCompletion,
  ChatRequest,
  ChatUsage,
  Json,
  NativeStreamMeter,
  SurfaceTranslator,
  TextSink,
  UpstreamCall,
  WholeBodyAdapter,
} from '../providers/types.js';
import type { RouterChannel } from '../routing/router.js';
import type { StreamedResponse, WholeResponse } from '../transport/executor.js';
import { ClientLink, sendWhole, streamHeaders } from '../transport/respond.js';
import type { Endpoint, RelayInput } from './endpoint.js';
import type { Attempt, RelayDeps } from './pipeline.js';
import { classifyParsedError, networkFailure, streamBreakMessage, type UpstreamFailure } from './upstream-errors.js';

/**
 * A chat call that crosses wire formats: the client's surface (OpenAI chat, Anthropic Messages,
 * Gemini) is translated to the canonical OpenAI chat shape, the channel's adapter builds its own
 * request from that and reads its own answer back, and the surface turns the canonical answer
 * into the client's format. Streams are translated chunk by chunk, never gathered.
 */

/** A client wire format and how its streams carry an error raised mid-way. */
export interface SurfaceBinding {
  translator: SurfaceTranslator;
  /** An error after the stream started, in the surface's stream framing. */
  streamError(message: string): string;
  /** The pass-through for channels that take this surface's body unchanged (same format), if any. */
  nativeFor?(channelType: number, upstreamModel: string): NativePassThrough | undefined;
}

/** Same format in and out: the body goes through but for the model; usage is read on the way. */
export interface NativePassThrough {
  prepare(
    body: Json,
    context: AdapterContext,
    request: RelayHttpRequest | undefined,
    adapter: ChatAdapter,
  ): UpstreamCall | Promise<UpstreamCall>;
  usageOf(body: Json): ChatUsage | undefined;
  /** Reads usage from a passing stream, handing its generated text to `onText` for counting. */
  meter(onText: TextSink): NativeStreamMeter;
  /** A stream not in the client's framing (Bedrock's event stream) is re-framed on the way. */
  reframe?(): { push(bytes: Buffer): string; end(): string };
}

export const openAiChatSurface: SurfaceBinding = {
  translator: openAiSurface,
  streamError: (message) => `data: ${JSON.stringify({ error: { message, type: 'upstream_error' } })}\n\n`,
};

/** Settles the reservation on `usage` and writes the consume log. */
export type Finish = (usage: Usage, firstByteMs: number | undefined, clientGone: boolean) => Promise<void>;

const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_UPSTREAM_BODY = 64 * 1024 * 1024;
const MAX_ERROR_BODY = 1024 * 1024;

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

function billingUsage(usage: ChatUsage | null | undefined): Usage | undefined {
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

function completionText(completion: ChatCompletion): string {
  let text = '';
  for (const { message } of completion.choices) {
    text += (message.content ?? '') + (message.reasoning_content ?? '');
    for (const call of message.tool_calls ?? []) text += call.function.name + call.function.arguments;
  }
  return text;
}

/**
 * An upstream error in any format, classified like OpenAI-format errors (retry, disable, cool down).
 * `trustedKeywords` only for requests the gateway wrote itself (channel tests).
 */
export function classifyAdapterError(
  adapter: ChatAdapter,
  status: number,
  body: Buffer,
  trustedKeywords: readonly string[] = [],
): UpstreamFailure {
  const info = adapter.parseError(status, body);
  const parsed = {
    message: info.message,
    ...(info.type ? { type: info.type } : {}),
    ...(info.code ? { code: info.code } : {}),
    structured: Boolean(info.type || info.code),
  };
  return classifyParsedError(info.status, parsed, trustedKeywords);
}

/** A 2xx answer that cannot be read: 502 to the client, and another channel may be tried. */
export function malformedAnswer(message: string): UpstreamFailure {
  return {
    error: new AppError('upstream_error', `the upstream's answer could not be read: ${message}`, { status: 502 }),
    retry: true,
    disable: false,
    coolDown: false,
  };
}

/**
 * The upstream request could not be made. A network error on the way (fetching a Vertex token)
 * names an address, so it is told like any unreachable upstream; our own reasons are told as they are.
 */
function buildFailure(error: unknown): UpstreamFailure {
  const code = error instanceof AppError ? undefined : (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_)/.test(code)) return networkFailure(error);
  const message = error instanceof Error ? error.message : 'the request could not be built';
  return { error: new AppError('upstream_error', message), retry: true, disable: false, coolDown: false };
}

export interface ChatCall {
  deps: RelayDeps;
  attempt: Attempt;
  surface: SurfaceBinding;
  adapter: ChatAdapter;
  channel: RouterChannel;
  request: RelayHttpRequest;
  reply: RelayHttpReply;
  /** Settlement for the billed model; made once the model mapping is known. */
  finishFor(billedModel: string): Finish;
}

function contextFor(call: ChatCall, upstreamModel: string): AdapterContext {
  const { channel, deps, attempt } = call;
  return {
    key: channel.key,
    channelType: channel.type,
    baseUrl: deps.baseUrlOf(channel).replace(/\/+$/, ''),
    upstreamModel,
    other: channel.other,
    plugin: {},
    headers: channel.model_headers,
    stream: attempt.input.stream,
    now: Math.floor(attempt.startedAt / 1000),
    responseId: `chatcmpl-${randomBytes(12).toString('base64url')}`,
  };
}

type Sent = Parameters<RelayDeps['upstream']['fetchWhole']>[0];

const isFailure = (value: object): value is UpstreamFailure => 'retry' in value && 'error' in value;

/** The whole answer, or the failure to hand back for a retry. */
async function fetchAnswer(call: ChatCall, sent: Sent): Promise<WholeResponse | UpstreamFailure> {
  let answer: WholeResponse;
  try {
    answer = await call.deps.upstream.fetchWhole(sent, MAX_UPSTREAM_BODY);
  } catch (error) {
    return networkFailure(error);
  }
  if (answer.status < 400) return answer;
  return classifyAdapterError(call.adapter, answer.status, answer.body.subarray(0, MAX_ERROR_BODY));
}

/** The upstream's stream at its headers, or the failure to hand back for a retry. */
async function openAnswer(call: ChatCall, sent: Sent): Promise<StreamedResponse | UpstreamFailure> {
  let upstream: StreamedResponse;
  try {
    upstream = await call.deps.upstream.openStream(sent);
  } catch (error) {
    return networkFailure(error);
  }
  if (upstream.status < 400) return upstream;
  const text = await upstream.readAll(MAX_ERROR_BODY).catch(() => Buffer.alloc(0));
  return classifyAdapterError(call.adapter, upstream.status, text);
}

interface Transfer {
  firstByteMs: number | undefined;
  clientGone: boolean;
  failure?: unknown;
}

/**
 * Streams the upstream's body to the client through `transform`, one write per upstream chunk,
 * holding the upstream while the client drains and stopping it when the client leaves. A break
 * mid-way reaches the client as an error in the surface's framing.
 */
async function pumpToClient(
  call: ChatCall,
  upstream: StreamedResponse,
  transform: { chunk(bytes: Buffer): string | Buffer; end(): string; fail?(message: string): string },
): Promise<Transfer> {
  const { reply, request, attempt } = call;
  reply.hijack();
  reply.raw.writeHead(200, streamHeaders(request.id));
  const transfer: Transfer = { firstByteMs: undefined, clientGone: false };
  const client = new ClientLink(reply.raw, upstream);
  try {
    await upstream.pump((bytes) => {
      transfer.firstByteMs ??= Date.now() - attempt.startedAt;
      const out = transform.chunk(bytes);
      return out.length > 0 ? client.write(out) : undefined;
    });
    const closing = transform.end();
    if (closing) await client.write(closing);
  } catch (error) {
    if (!client.gone) {
      transfer.failure = error;
      const message = streamBreakMessage(error);
      await client.write(transform.fail ? transform.fail(message) : call.surface.streamError(message));
    }
  } finally {
    client.release();
  }
  transfer.clientGone = client.gone;
  if (!client.gone) reply.raw.end();
  return transfer;
}

/** One call of a translated chat to one channel; a failure before any byte reached the client is returned for a retry. */
export async function tryChatExchange(call: ChatCall): Promise<UpstreamFailure | undefined> {
  const { deps, attempt, adapter, channel } = call;
  const chat = chatRequestOf(attempt.input, call.surface);
  const { upstreamModel, billedModel } = mapModel(channel, attempt.input.model);
  const context = contextFor(call, upstreamModel);
  let outgoing: UpstreamCall;
  try {
    outgoing = await adapter.buildChat({ ...chat, model: upstreamModel }, context);
  } catch (error) {
    // e.g. a Vertex token that could not be had, or a request this provider cannot take.
    return buildFailure(error);
  }
  const finish = call.finishFor(billedModel);
  const sent = { ...outgoing, proxy: channel.proxy };
  if (!attempt.input.stream) {
    const answer = await fetchAnswer(call, sent);
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
    const body = call.surface.translator.fromChat(completion, attempt.input.model, chat);
    sendWhole(call.reply, call.request.id, 200, JSON_TYPE, JSON.stringify(body));
    await finish(usage, Date.now() - attempt.startedAt, false);
    return undefined;
  }
  const upstream = await openAnswer(call, sent);
  if (isFailure(upstream)) return upstream;
  const encoder =
    call.surface === openAiChatSurface
      ? openAiStreamEncoder(clientAskedUsage(attempt.input.fields))
      : call.surface.translator.encodeStream(attempt.input.model, chat);
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
  const transfer = await pumpToClient(call, upstream, {
    chunk: (bytes) => encode(decoder.push(bytes)),
    end: () => encode(decoder.end()) + encoder.end(streamedUsage),
    ...(encoder.fail ? { fail: (message: string) => encoder.fail?.(message) ?? '' } : {}),
  });
  const usage = billingUsage(streamedUsage) ?? {
    prompt_tokens: countChatPromptTokens(chat),
    completion_tokens: tally.total(),
  };
  await finish(usage, transfer.firstByteMs, transfer.clientGone);
  if (transfer.failure) deps.logger.warn({ err: transfer.failure }, 'translated upstream stream broke off');
  return undefined;
}

/** One call of a same-format chat to one channel: bytes through, usage read on the way. */
export async function tryNativeExchange(
  call: ChatCall,
  native: NativePassThrough,
): Promise<UpstreamFailure | undefined> {
  const { deps, attempt, adapter, channel } = call;
  const chat = chatRequestOf(attempt.input, call.surface);
  const { upstreamModel, billedModel } = mapModel(channel, attempt.input.model);
  const context = contextFor(call, upstreamModel);
  let prepared: UpstreamCall;
  try {
    prepared = await native.prepare(attempt.input.fields, context, call.request, adapter);
  } catch (error) {
    return buildFailure(error);
  }
  const sent = { ...prepared, proxy: channel.proxy };
  const finish = call.finishFor(billedModel);
  if (!attempt.input.stream) {
    const answer = await fetchAnswer(call, sent);
    if (isFailure(answer)) return answer;
    let parsed: Json | undefined;
    try {
      const value: unknown = JSON.parse(answer.body.toString('utf8'));
      parsed = typeof value === 'object' && value !== null ? (value as Json) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed) return malformedAnswer('the body is not JSON');
    const usage = billingUsage(native.usageOf(parsed)) ?? {
      prompt_tokens: countChatPromptTokens(chat),
      completion_tokens: countTextTokens(safeCompletionText(adapter, answer.body, context)),
    };
    const contentType = answer.headers['content-type'];
    sendWhole(call.reply, call.request.id, 200, typeof contentType === 'string' ? contentType : JSON_TYPE, answer.body);
    await finish(usage, Date.now() - attempt.startedAt, false);
    return undefined;
  }
  const upstream = await openAnswer(call, sent);
  if (isFailure(upstream)) return upstream;
  const tally = new TextTally();
  const meter = native.meter((text) => tally.push(text));
  const reframer = native.reframe?.();
  const metered = (text: string) => {
    if (text) meter.push(Buffer.from(text));
    return text;
  };
  const transfer = await pumpToClient(call, upstream, {
    chunk: (bytes) => {
      if (reframer) return metered(reframer.push(bytes));
      meter.push(bytes);
      return bytes;
    },
    end: () => (reframer ? metered(reframer.end()) : ''),
  });
  await finish(nativeStreamUsage(meter, chat, tally), transfer.firstByteMs, transfer.clientGone);
  if (transfer.failure) deps.logger.warn({ err: transfer.failure }, 'upstream stream broke off');
  return undefined;
}

/**
 * What a passed-through stream bills: the upstream's final counts when they came; when the stream
 * ended before them (the client left, the upstream broke off), the counts seen so far with at
 * least the tokens of the text that got through; with no counts at all, our own count.
 */
function nativeStreamUsage(meter: NativeStreamMeter, chat: ChatRequest, tally: TextTally): Usage {
  const reported = billingUsage(meter.usage());
  if (reported && meter.finished()) return reported;
  const produced = tally.total();
  if (!reported) return { prompt_tokens: countChatPromptTokens(chat), completion_tokens: produced };
  return { ...reported, completion_tokens: Math.max(reported.completion_tokens, produced) };
}

function safeCompletionText(adapter: ChatAdapter, body: Buffer, context: AdapterContext): string {
  try {
    return completionText(adapter.parseChat(body, context));
  } catch {
    return '';
  }
}

function clientAskedUsage(fields: Json): boolean {
  const options = fields.stream_options;
  return typeof options === 'object' && options !== null && (options as Json).include_usage === true;
}

/**
 * A non-chat endpoint (embeddings, rerank) on an upstream of another format: the OpenAI-shaped
 * body is translated, sent whole, and the answer translated back and billed by the endpoint.
 */
export async function tryWholeExchange(
  call: Omit<ChatCall, 'surface'>,
  endpoint: Endpoint,
  whole: WholeBodyAdapter,
): Promise<UpstreamFailure | undefined> {
  const { attempt, channel } = call;
  const { upstreamModel, billedModel } = mapModel(channel, attempt.input.model);
  const exchange = { ...call, surface: openAiChatSurface };
  const context = contextFor(exchange, upstreamModel);
  let outgoing: UpstreamCall;
  try {
    outgoing = await whole.build({ ...attempt.input.fields, model: upstreamModel }, context);
  } catch (error) {
    return buildFailure(error);
  }
  const answer = await fetchAnswer(exchange, { ...outgoing, proxy: channel.proxy });
  if (isFailure(answer)) return answer;
  let body: Json;
  try {
    body = whole.parse(answer.body, context);
  } catch (error) {
    return malformedAnswer(error instanceof Error ? error.message : String(error));
  }
  const usage = endpoint.usageOf(body) ?? {
    prompt_tokens: endpoint.countPrompt(attempt.input, billedModel),
    completion_tokens: 0,
  };
  sendWhole(call.reply, call.request.id, 200, JSON_TYPE, JSON.stringify(body));
  await call.finishFor(billedModel)(usage, Date.now() - attempt.startedAt, false);
  return undefined;
}
