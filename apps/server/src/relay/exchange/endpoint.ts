import type { RelayHttpRequest } from '../../http/direct-routes.js';
import { AppError } from '../../platform/errors.js';
import type { Usage } from '../billing/quota.js';
import type { ChatRequest } from '../providers/types.js';
import { type MultipartForm, parseMultipart } from '../transport/multipart.js';
import type { SurfaceBinding } from './chat-exchange.js';

export type JsonObject = Record<string, unknown>;

/** A client request as the pipeline sees it, whatever its encoding. */
export interface RelayInput {
  model: string;
  stream: boolean;
  /** The JSON body, or the text fields of a multipart form (all strings). */
  fields: JsonObject;
  /** Multipart requests only: the body as received, forwarded unchanged but for the model. */
  form?: MultipartForm;
  /** The request in the canonical chat shape, once a translation needed it (chat-exchange.ts). */
  chat?: ChatRequest;
}

/** How the server-sent events of a streamed answer are metered and, if need be, rewritten. */
export interface StreamFormat {
  /** The usage an event reports, in billing form. */
  usageOf(event: JsonObject): Usage | undefined;
  /** Generated text carried by an event, counted when the upstream reports no usage. */
  textOf(event: JsonObject): string;
  /** What the client gets instead of the event: undefined keeps it as sent, null drops it. */
  rewrite?(event: JsonObject, input: RelayInput): JsonObject | null | undefined;
  /**
   * False when `rewrite` surely keeps this event (its text alone tells): such events are sent
   * before they are read. Without it, every event of a format with `rewrite` is read first.
   */
  mayRewrite?(eventText: string, input: RelayInput): boolean;
  /** The data of the event that ends a complete stream (`[DONE]`), sent if the upstream left it out. */
  endMarker?: string;
}

/**
 * One OpenAI endpoint of the relay: how its request is read and checked, how its prompt is
 * estimated and counted, where its usage is found, and what kind of body a success returns.
 */
export interface Endpoint {
  path: string;
  body: 'json' | 'multipart';
  /** Used when the request names no model; without it the model is required. */
  defaultModel?: string;
  /** A non-streamed success: JSON metered from its body, or bytes forwarded as they arrive. */
  output: 'json' | 'binary';
  /** Present when `stream: true` makes the upstream answer with server-sent events. */
  stream?: StreamFormat;
  /** Checks the fields the endpoint needs beyond the model; throws a 400 naming the field. */
  validate?(input: RelayInput): void;
  /** Fast, generous estimate used to size the reservation. */
  estimatePrompt(input: RelayInput): number;
  /** Exact prompt count for the billed model, used when the upstream reports no usage. */
  countPrompt(input: RelayInput, billedModel: string): number;
  /** The usage a JSON success body reports, in billing form. */
  usageOf(body: unknown): Usage | undefined;
  /** Completion tokens of a success body that reports no usage (generated text, transcripts). */
  countCompletion?(raw: Buffer, contentType: string): number;
  /** Whether a parsed 2xx body is this endpoint's answer; absent when any body goes (text transcripts). */
  isAnswer?(body: unknown): boolean;
  /**
   * A chat endpoint: a channel whose upstream speaks another format is reached by translation.
   * `surface` is the client's format when it is not OpenAI chat (Anthropic Messages, Gemini);
   * without one, OpenAI channels get the body passed through.
   */
  chat?: {
    surface?: SurfaceBinding;
    /** Channel types that serve this endpoint themselves: they get the body passed through. */
    servedBy?: ReadonlySet<number>;
  };
  /** Chat surfaces (OpenAI chat, Anthropic, Gemini) honour a key's heartbeat (heartbeat.ts). */
  heartbeat?: boolean;
  /** The API key as the client's SDK sends it, when not in `Authorization` (x-api-key, ?key=). */
  credential?(request: RelayHttpRequest): string | undefined;
  /** The model when the client names it outside the body (Gemini puts it in the path). */
  modelOf?(request: RelayHttpRequest): string | undefined;
  /** Whether the client asked for a stream, when not by `stream: true` (Gemini: the method name). */
  isStream?(request: RelayHttpRequest, fields: JsonObject): boolean;
}

export function fieldError(field: string, message: string): AppError {
  return new AppError('bad_request', `${field}: ${message}`, { details: { param: field } });
}

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function parsedJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

function modelOf(endpoint: Endpoint, fields: JsonObject): string {
  const model = fields.model;
  if ((model === undefined || model === null) && endpoint.defaultModel) return endpoint.defaultModel;
  if (typeof model !== 'string' || !model.trim()) {
    throw new AppError('bad_request', 'model: a model name is required', { details: { param: 'model' } });
  }
  return model.trim();
}

function jsonFields(request: RelayHttpRequest): JsonObject {
  const body = request.body;
  // A text/plain body reaches here as a string: say what is wrong with it, not that it is no object.
  const contentType = request.headers['content-type'] ?? '';
  if (Buffer.isBuffer(body) || !/^application\/(.+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new AppError('unsupported_media_type', 'send this request as application/json');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.badRequest('request body must be a JSON object');
  }
  const fields = body as JsonObject;
  if (fields.stream !== undefined && fields.stream !== null && typeof fields.stream !== 'boolean') {
    throw new AppError('bad_request', 'stream: must be true or false', { details: { param: 'stream' } });
  }
  return fields;
}

function multipartForm(request: RelayHttpRequest): MultipartForm {
  const contentType = request.headers['content-type'] ?? '';
  if (!Buffer.isBuffer(request.body)) {
    throw new AppError('unsupported_media_type', 'send this request as multipart/form-data');
  }
  const form = parseMultipart(request.body, contentType);
  if (form.parts.filter((part) => part.name === 'model').length > 1) {
    throw new AppError('bad_request', 'model: given more than once', { details: { param: 'model' } });
  }
  return form;
}

/** Reads and checks the client's request; nothing has been reserved or sent yet. */
export function readRelayInput(endpoint: Endpoint, request: RelayHttpRequest): RelayInput {
  let input: RelayInput;
  if (endpoint.body === 'multipart') {
    const form = multipartForm(request);
    const model = modelOf(endpoint, form.fields);
    input = {
      model,
      stream: endpoint.stream !== undefined && form.fields.stream === 'true',
      fields: form.fields,
      form,
    };
  } else {
    const fields = jsonFields(request);
    input = {
      model: endpoint.modelOf?.(request) ?? modelOf(endpoint, fields),
      stream: endpoint.isStream
        ? endpoint.isStream(request, fields)
        : endpoint.stream !== undefined && fields.stream === true,
      fields,
    };
  }
  // Longer than any provider's model name, and than the log's column for it.
  if (input.model.length > MAX_MODEL_NAME) {
    throw fieldError('model', `a model name is at most ${MAX_MODEL_NAME} characters`);
  }
  endpoint.validate?.(input);
  return input;
}

const MAX_MODEL_NAME = 255;

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * OpenAI's chat-style `usage` object. One that reports no tokens at all counts as missing, so a
 * vendor answering zeros is metered by our own count rather than served for free.
 */
export function openAiUsage(value: unknown): Usage | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const usage = value as Usage;
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  if (prompt + completion <= 0) return undefined;
  // Embeddings and moderations report no completion tokens at all: both counts are always numbers.
  return { ...usage, prompt_tokens: prompt, completion_tokens: completion };
}

/** The `usage` of a JSON body in OpenAI's chat format. */
export const bodyUsage = (body: unknown): Usage | undefined =>
  body && typeof body === 'object' ? openAiUsage((body as { usage?: unknown }).usage) : undefined;

function presentCounts<Field extends string>(
  details: Record<string, unknown>,
  fields: readonly Field[],
): Partial<Record<Field, number>> | undefined {
  const counts: Partial<Record<Field, number>> = {};
  for (const field of fields) if (count(details[field]) > 0) counts[field] = count(details[field]);
  return Object.keys(counts).length > 0 ? counts : undefined;
}

interface TokenUsage {
  input_tokens?: unknown;
  output_tokens?: unknown;
  input_tokens_details?: Record<string, unknown> | null;
  input_token_details?: Record<string, unknown> | null;
  output_tokens_details?: Record<string, unknown> | null;
}

/**
 * The `input_tokens`/`output_tokens` usage of the Responses, image and transcription APIs in
 * billing form; undefined when it reports no tokens (or is a duration, as whisper's is).
 */
export function tokenUsage(value: unknown): Usage | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const usage = value as TokenUsage;
  const prompt = count(usage.input_tokens);
  const completion = count(usage.output_tokens);
  if (prompt + completion <= 0) return undefined;
  const inputDetails = usage.input_tokens_details ?? usage.input_token_details ?? {};
  const outputDetails = usage.output_tokens_details ?? {};
  const result: Usage = { prompt_tokens: prompt, completion_tokens: completion };
  const promptDetails = presentCounts(inputDetails, ['cached_tokens', 'text_tokens', 'image_tokens', 'audio_tokens']);
  if (promptDetails) result.prompt_tokens_details = promptDetails;
  const completionDetails = presentCounts(outputDetails, ['reasoning_tokens', 'text_tokens', 'image_tokens']);
  if (completionDetails) result.completion_tokens_details = completionDetails;
  return result;
}
