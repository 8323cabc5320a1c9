import type { Json } from '@one-hub/contracts';
import type { RelayHttpRequest } from '../../http/relay-front.js';
import { AppError, fieldError } from '../../platform/errors.js';
import { ownCopy } from '../../platform/own-copy.js';
import type { Usage } from '../billing/quota.js';
import { type MultipartForm, parseMultipart } from '../transport/multipart.js';
import type { Endpoint, RelayInput } from './types.js';

/** Reading a client's request for an endpoint, and the usage formats OpenAI's endpoints report. */

export function parsedJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

function modelOf(endpoint: Endpoint, fields: Json): string {
  const model = fields.model;
  if ((model === undefined || model === null) && endpoint.defaultModel) return endpoint.defaultModel;
  if (typeof model !== 'string' || !model.trim()) {
    throw new AppError('bad_request', 'model: a model name is required', { details: { param: 'model' } });
  }
  return model.trim();
}

function jsonFields(request: RelayHttpRequest): Json {
  const body = request.body;
  // A text/plain body reaches here as a string: say what is wrong with it, not that it is no object.
  const contentType = request.headers['content-type'] ?? '';
  if (Buffer.isBuffer(body) || !/^application\/(.+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new AppError('unsupported_media_type', 'send this request as application/json');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.badRequest('request body must be a JSON object');
  }
  const fields = body as Json;
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
  // A copy as `{ ...usage, prompt_tokens, completion_tokens }` gives, with maps V8 shares (own-copy.ts).
  const counted = ownCopy(usage);
  counted.prompt_tokens = prompt;
  counted.completion_tokens = completion;
  return counted;
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
