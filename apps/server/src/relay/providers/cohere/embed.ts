import type { AdapterContext, Json, UpstreamCall, WholeBodyAdapter } from '../types.js';
import { upstreamObject } from '../values.js';
import { cohereHeaders, cohereUrl, isRecord, numberOr } from './common.js';

/**
 * OpenAI embeddings (`/v1/embeddings`) → Cohere Embed v2 (`POST /v2/embed`) and back.
 *
 * - `input` (a string or a list of strings) → `texts`; token-id inputs cannot be sent (Cohere
 *   embeds text). Images are out of scope.
 * - `input_type`: what the client passes (Cohere's own field: `search_document`, `search_query`,
 *   `classification`, `clustering`), else `search_document`. `dimensions` → `output_dimension`,
 *   a client's `truncate` is kept. Floats are always asked for (`embedding_types: ["float"]`).
 * - The answer is OpenAI's list: `embeddings.float[i]` → `data[i].embedding`, or, when the
 *   client asked for `encoding_format: "base64"` (the `openai` SDK does by default), the base64
 *   of its little-endian float32 bytes, as OpenAI sends it.
 * - Usage: `meta.billed_units.input_tokens` (else `meta.tokens.input_tokens`) as `prompt_tokens`;
 *   without either there is no `usage` and the relay counts the input itself.
 */

const DEFAULT_INPUT_TYPE = 'search_document';

/** The OpenAI request's texts, or an Error naming the field. */
export function embedTexts(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) {
    throw new Error('input: a string or a non-empty list of strings is required');
  }
  return input.map((item, index) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || Array.isArray(item)) {
      throw new Error(`input[${index}]: Cohere embeds text; token arrays cannot be sent`);
    }
    throw new Error(`input[${index}]: a string is required`);
  });
}

function encodingOf(body: Json): 'float' | 'base64' {
  const format = body.encoding_format;
  if (format === undefined || format === null || format === 'float') return 'float';
  if (format === 'base64') return 'base64';
  throw new Error('encoding_format: "float" or "base64" is required');
}

/** OpenAI's base64 embedding: the vector as little-endian float32 bytes. */
export function float32Base64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString('base64');
}

export function buildEmbedCall(body: Json, context: AdapterContext): UpstreamCall {
  const texts = embedTexts(body.input);
  encodingOf(body);
  const inputType = body.input_type;
  if (inputType !== undefined && (typeof inputType !== 'string' || !inputType)) {
    throw new Error('input_type: a string is required');
  }
  const cohere: Json = {
    model: context.upstreamModel,
    texts,
    input_type: inputType ?? DEFAULT_INPUT_TYPE,
    embedding_types: ['float'],
  };
  if (body.dimensions !== undefined && body.dimensions !== null) {
    if (!Number.isInteger(body.dimensions) || Number(body.dimensions) <= 0) {
      throw new Error('dimensions: a positive whole number is required');
    }
    cohere.output_dimension = body.dimensions;
  }
  if (typeof body.truncate === 'string') cohere.truncate = body.truncate;
  return {
    url: cohereUrl(context.baseUrl, 'embed'),
    headers: cohereHeaders(context, false),
    body: JSON.stringify(cohere),
  };
}

/**
 * The answer, in OpenAI's shape. The encoding is read from the request the client sent: the
 * relay builds and parses with the same context, and `build` remembers it there.
 */
export function parseEmbedAnswer(body: Buffer, context: AdapterContext, encoding: 'float' | 'base64'): Json {
  const answer = upstreamObject(body, 'answer');
  const embeddings = isRecord(answer.embeddings) ? answer.embeddings.float : undefined;
  if (!Array.isArray(embeddings)) {
    if (typeof answer.message === 'string') throw new Error(answer.message);
    throw new Error("the upstream's answer has no embeddings.float list");
  }
  const data = embeddings.map((vector: unknown, index) => {
    if (!Array.isArray(vector) || !vector.every((value) => typeof value === 'number')) {
      throw new Error(`the upstream's embeddings.float[${index}] is not a list of numbers`);
    }
    return {
      object: 'embedding',
      index,
      embedding: encoding === 'base64' ? float32Base64(vector as number[]) : vector,
    };
  });
  const meta = isRecord(answer.meta) ? answer.meta : {};
  const billed = isRecord(meta.billed_units) ? meta.billed_units : {};
  const tokens = isRecord(meta.tokens) ? meta.tokens : {};
  const input = numberOr(billed.input_tokens) ?? numberOr(tokens.input_tokens);
  return {
    object: 'list',
    data,
    model: context.upstreamModel,
    ...(input !== undefined ? { usage: { prompt_tokens: input, total_tokens: input } } : {}),
  };
}

/** What `build` saw that `parse` needs, per exchange (the relay passes one context to both). */
const encodings = new WeakMap<AdapterContext, 'float' | 'base64'>();

export const cohereEmbeddings = {
  build(body, context) {
    const call = buildEmbedCall(body, context);
    encodings.set(context, encodingOf(body));
    return call;
  },
  parse: (body, context) => parseEmbedAnswer(body, context, encodings.get(context) ?? 'float'),
} satisfies WholeBodyAdapter;
