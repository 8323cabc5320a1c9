/**
 * The translation contract between wire formats. Every translation goes through one canonical
 * shape, OpenAI's chat completions (request, whole answer, stream chunk), so N client formats and
 * M upstream formats need N + M translators, not N × M. A surface whose format equals the
 * upstream's (Anthropic in, Anthropic out) skips translation and passes bodies through.
 *
 * Everything here is pure: no I/O, no clock, no randomness beyond ids passed in. The shared
 * executor does every network call; adapters only say what to send and how to read the answer.
 */

import type { Json } from '@one-hub/contracts';
import type { MultipartForm } from '../transport/multipart.js';

/** The one JSON object type (from contracts), named here for every adapter. */
export type { Json };

// ---- the canonical shape: OpenAI chat completions ----

export interface ChatTextPart {
  type: 'text';
  text: string;
}
export interface ChatImagePart {
  type: 'image_url';
  /** An https URL or a `data:<mime>;base64,…` URL. */
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}
export interface ChatAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: string };
}
export interface ChatFilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}
export type ChatContentPart = ChatTextPart | ChatImagePart | ChatAudioPart | ChatFilePart;

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | ChatContentPart[] | null;
  name?: string;
  /** assistant */
  tool_calls?: ChatToolCall[];
  /** assistant: the model's visible reasoning, as DeepSeek and others return it. */
  reasoning_content?: string;
  /** assistant: refusal text (OpenAI structured outputs). */
  refusal?: string | null;
  /** tool */
  tool_call_id?: string;
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Json; strict?: boolean };
}

export type ChatToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  /** Not OpenAI's, but accepted by several vendors and by our Anthropic/Gemini translations. */
  top_k?: number;
  stop?: string | string[];
  n?: number;
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: { type: 'text' | 'json_object' | 'json_schema'; json_schema?: Json };
  /** OpenAI's reasoning effort; translated into thinking budgets where the upstream has them. */
  reasoning_effort?: 'minimal' | 'low' | 'medium' | 'high';
  user?: string;
  /** Anything else the client sent is kept, and passed on where the upstream understands it. */
  [field: string]: unknown;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/**
 * OpenAI usage. `prompt_tokens` includes cached and cache-write tokens; `completion_tokens`
 * includes reasoning tokens (this is what billing expects, see billing/quota.ts `Usage`).
 */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: {
    cached_tokens?: number;
    audio_tokens?: number;
    /** Anthropic-style prompt-cache writes, billed at their own ratio. */
    cached_write_tokens?: number;
    /**
     * Anthropic-style prompt-cache reads, billed at their own ratio (0.1 by default) where
     * OpenAI's `cached_tokens` bill at 1: the same tokens as `cached_tokens`, which stays for
     * OpenAI clients, so billing reads only one of the two.
     */
    cached_read_tokens?: number;
    /** Per-modality counts (Gemini's), priced as their own extra-token kinds. */
    text_tokens?: number;
    image_tokens?: number;
  };
  completion_tokens_details?: {
    reasoning_tokens?: number;
    audio_tokens?: number;
    text_tokens?: number;
    image_tokens?: number;
  };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      reasoning_content?: string;
      tool_calls?: ChatToolCall[];
      refusal?: string | null;
    };
    finish_reason: FinishReason | null;
  }>;
  usage?: ChatUsage;
}

export interface ChatChunkToolCall {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

export interface ChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: {
      role?: 'assistant';
      content?: string | null;
      reasoning_content?: string;
      tool_calls?: ChatChunkToolCall[];
      refusal?: string | null;
    };
    finish_reason: FinishReason | null;
  }>;
  /** Present on the last chunk (with empty `choices`) when usage is known. */
  usage?: ChatUsage | null;
}

// ---- upstream adapters ----

/** One HTTP request to send upstream (always POST). */
export interface UpstreamCall {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  /**
   * The body is signed (SigV4, TC3) and must go as built: its adapter merged the channel's
   * parameters itself before signing (channel-parameters.ts), nothing after it may.
   */
  sealed?: boolean;
}

/** What an adapter knows about the call it is building. */
export interface AdapterContext {
  /** The channel's key (one line; some types pack several parts, e.g. `id|secret`). */
  key: string;
  /** The channel's type id (reference §3.4), for adapters that serve several types (OpenAI and Azure). */
  channelType?: number;
  /** The channel's base URL, or the type's default; no trailing slash. */
  baseUrl: string;
  /** The model to send upstream (after the channel's mapping), suffixes like `#thinking` included. */
  upstreamModel: string;
  /** The channel's `other` field (e.g. an API version or a region). */
  other: string;
  /** The channel's `plugin` JSON, parsed ({} when empty). */
  plugin: Json;
  /** Extra headers the channel adds to every call. */
  headers: Record<string, string>;
  /**
   * The channel's `custom_parameter`, parsed. The exchange merges it into every JSON body built;
   * only an adapter that signs its body merges it itself, before signing (channel-parameters.ts).
   */
  parameters?: Record<string, unknown>;
  /** Whether the client asked for a stream. */
  stream: boolean;
  /** Unix seconds, for the `created` fields of translated answers. */
  now: number;
  /** An id for translated answers (`chatcmpl-…`), chosen by the caller. */
  responseId: string;
  /** The relay's settings that translations follow; absent (calls made outside the relay), their defaults apply. */
  settings?: TranslationSettings;
}

/** Settings of the settings screen that change how a request is translated (read from memory per call). */
export interface TranslationSettings {
  /** ClaudeDefaultMaxTokens: Anthropic's `max_tokens` by model when the client sets none; `default` for the rest. */
  claudeDefaultMaxTokens: Readonly<Record<string, number>>;
  /** ClaudeBudgetTokensPercentage: the share of `max_tokens` given to thinking when no effort says otherwise. */
  claudeBudgetShare: number;
  /** GeminiOpenThink: models whose Gemini requests ask for the thoughts (`includeThoughts`). */
  geminiOpenThink: Readonly<Record<string, boolean>>;
}

/** Turns the upstream's stream bytes into OpenAI chunks, in order; it never buffers a whole answer. */
export interface StreamDecoder {
  push(bytes: Buffer): ChatChunk[];
  /** The upstream ended cleanly: any chunks still held back (e.g. the usage chunk). */
  end(): ChatChunk[];
}

/** An upstream error read from its own format. */
export interface UpstreamErrorInfo {
  status: number;
  message: string;
  /** OpenAI-style type when the upstream gives one (`authentication_error`, `rate_limit_error`…). */
  type?: string;
  code?: string;
}

/** The OpenAI endpoints besides chat that an upstream of another format may serve by translation. */
export type WholeEndpointPath =
  | '/v1/embeddings'
  | '/v1/rerank'
  | '/v1/images/generations'
  | '/v1/audio/speech'
  | '/v1/audio/transcriptions';

/** An answer handed to the client as bytes (speech audio) rather than JSON. */
export interface BinaryAnswer {
  contentType: string;
  bytes: Buffer;
}

/** A further request within the same exchange: polling a job, downloading what it made. */
export interface FollowUpCall {
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
}

/**
 * Makes a follow-up call through the executor (the channel's proxy included) and gives its 2xx
 * answer; an error status or an unreachable upstream ends the exchange as that channel's failure.
 */
export type FollowUp = (
  call: FollowUpCall,
) => Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>;

/**
 * A non-chat OpenAI endpoint (embeddings, rerank, images, speech) served by an upstream of
 * another format: the OpenAI-shaped request in, the upstream's request out, and its answer back
 * in the OpenAI shape (usage included) that the endpoint bills on, or as bytes (speech).
 */
export interface WholeBodyAdapter {
  /** `form` is the client's multipart body as received (transcriptions), for the file's bytes. */
  build(body: Json, context: AdapterContext, form?: MultipartForm): UpstreamCall | Promise<UpstreamCall>;
  /**
   * For upstreams that report errors inside a 2xx answer (MiniMax's `base_resp`): the HTTP status
   * such an answer stands for, or undefined when it is a success. The body is then read as an
   * error by the adapter's `parseError`, and the exchange fails as for that status.
   */
  errorStatus?(body: Buffer): number | undefined;
  /**
   * The first call's 2xx body to the endpoint's answer. Jobs that finish later (Replicate's
   * predictions) are polled with `follow`, each wait bounded. Throws an Error naming the problem
   * when the body is malformed.
   */
  parse(
    body: Buffer,
    context: AdapterContext,
    follow: FollowUp,
    /** The OpenAI-shaped request `build` was given (its `n`, `response_format`…); the exchange always passes it. */
    request?: Json,
  ): Json | BinaryAnswer | Promise<Json | BinaryAnswer>;
  /**
   * Image answers whose `url`s expire (Replicate's output files): the image behind one of them,
   * fetched with `follow`, so that configured image storage can keep a lasting copy.
   */
  expiringImage?(url: string, context: AdapterContext, follow: FollowUp): Promise<StoredImageBytes>;
}

/** An image's bytes and their content type. */
export interface StoredImageBytes {
  bytes: Buffer;
  contentType: string;
}

export interface ChatAdapter {
  /** The upstream's own wire format: a surface of the same format may pass bodies through. */
  readonly format: string;
  /** Other endpoints this upstream serves, by the relay path they answer (`/v1/embeddings`, `/v1/rerank`…). */
  readonly endpoints?: Readonly<Partial<Record<WholeEndpointPath, WholeBodyAdapter>>>;
  /**
   * True for upstreams that speak OpenAI's wire format (chat and every endpoint not in `endpoints`
   * is passed through); OpenAI's own adapter and the variants made from it with other endpoints.
   */
  readonly speaksOpenAi?: true;
  /** False for upstreams that serve only the `endpoints` (image or speech services): chat goes elsewhere. */
  readonly chat?: false;
  /**
   * True for upstreams that take images only inline (base64): images given by web URL are fetched
   * by the gateway first (exchange/inline-images.ts, ChatImageRequestProxy).
   */
  readonly inlineImages?: true;
  buildChat(request: ChatRequest, context: AdapterContext): UpstreamCall | Promise<UpstreamCall>;
  /**
   * For upstreams that report errors inside a 2xx whole answer (Baidu's v1 `error_code`): the HTTP
   * status such an answer stands for, or undefined when it is a success; it is then read by `parseError`.
   */
  errorStatus?(body: Buffer): number | undefined;
  /**
   * For upstreams whose answer may be a job still running (Replicate's predictions): the first
   * whole answer's body polled with `follow` to the finished one, each wait bounded. An AppError
   * thrown keeps its status; any other Error is a malformed answer.
   */
  awaitChat?(body: Buffer, context: AdapterContext, follow: FollowUp): Promise<Buffer>;
  /** A whole (non-stream) answer; throws an Error naming the problem when the body is malformed. */
  parseChat(body: Buffer, context: AdapterContext): ChatCompletion;
  decodeStream(context: AdapterContext): StreamDecoder;
  parseError(status: number, body: Buffer): UpstreamErrorInfo;
}

// ---- client surfaces ----

/**
 * A client wire format (Anthropic Messages, Gemini, Responses) in front of the canonical one.
 * `toChat` throws a 400-worthy Error whose message names the bad field.
 */
export interface SurfaceTranslator {
  toChat(body: Json, model: string): ChatRequest;
  /** `request` is what `toChat` gave, for formats whose answers echo the request (Responses). */
  fromChat(completion: ChatCompletion, requestedModel: string, request?: ChatRequest): Json;
  /** Canonical chunks in, the surface's stream text out (complete SSE frames or JSON lines). */
  encodeStream(requestedModel: string, request?: ChatRequest): StreamEncoder;
  /** The surface's own error body for a status and message. */
  errorBody(status: number, message: string, type?: string): Json;
}

export interface StreamEncoder {
  push(chunk: ChatChunk): string;
  /** After the last chunk; `usage` is the final usage when known. */
  end(usage: ChatUsage | undefined): string;
  /** The upstream broke off: closing text that tells the client (else the surface's generic error). */
  fail?(message: string): string;
}

/** Receives the generated text (text, thinking, tool arguments) of a passing stream, for counting its tokens. */
export type TextSink = (text: string) => void;

/** Reads usage from a passed-through stream as its bytes go by (Anthropic's and Gemini's formats). */
export interface NativeStreamMeter {
  push(bytes: Buffer): void;
  /** The usage the stream reported so far. */
  usage(): ChatUsage | undefined;
  /** Whether the final counts came; before them the output count is partial or missing. */
  finished(): boolean;
}
