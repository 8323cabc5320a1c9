import { fieldError } from '../../../platform/errors.js';
import type { AdapterContext, Json, WholeBodyAdapter } from '../types.js';
import { isRecord, num, upstreamObject } from '../values.js';
import { hunyuanErrorStatus, tencentError } from './errors.js';
import { compatibleUrl, hunyuanCredentials, tencentCall } from './request.js';

/**
 * `/v1/embeddings` on Hunyuan. Tencent Cloud credentials call the native `GetEmbedding` action
 * (`Input`, or `InputList` of up to 200 texts; one fixed model, 1024 dimensions), answered as
 * `{"Response": {Data: [{Embedding, Index}], Usage: {PromptTokens, TotalTokens}}}` and turned
 * into OpenAI's list here, as float lists or, when asked (the `openai` SDK asks by default), as
 * base64 little-endian float32. A single API key calls the OpenAI-compatible `/v1/embeddings`.
 */

const MAX_TEXTS = 200;

type Encoding = 'float' | 'base64';

/** What `build` read that `parse` needs, per exchange (one context serves both). */
const encodings = new WeakMap<AdapterContext, Encoding>();

function encodingOf(body: Json): Encoding {
  const format = body.encoding_format;
  if (format === undefined || format === null || format === 'float') return 'float';
  if (format === 'base64') return 'base64';
  throw fieldError('encoding_format', '"float" or "base64" is required');
}

function float32Base64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => {
    bytes.writeFloatLE(value, index * 4);
  });
  return bytes.toString('base64');
}

function nativeInput(input: unknown): Json {
  if (typeof input === 'string') return { Input: input };
  if (Array.isArray(input) && input.length > 0 && input.every((text) => typeof text === 'string')) {
    if (input.length > MAX_TEXTS) throw fieldError('input', `Hunyuan embeds at most ${MAX_TEXTS} texts per request`);
    return { InputList: input };
  }
  throw fieldError('input', 'a string or a non-empty list of strings is required (Hunyuan takes no token arrays)');
}

function parseNative(body: Buffer, context: AdapterContext, encoding: Encoding): Json {
  const parsed = upstreamObject(body, 'answer');
  const failure = tencentError(parsed);
  if (failure) throw new Error(`${failure.message} (${failure.code})`);
  const response = isRecord(parsed.Response) ? parsed.Response : {};
  if (!Array.isArray(response.Data)) throw new Error("the upstream's answer has no Response.Data");
  const data = response.Data.filter(isRecord).map((entry, position) => {
    const vector = Array.isArray(entry.Embedding) ? (entry.Embedding as number[]) : [];
    return {
      object: 'embedding',
      index: typeof entry.Index === 'number' ? entry.Index : position,
      embedding: encoding === 'base64' ? float32Base64(vector) : vector,
    };
  });
  const usage = isRecord(response.Usage) ? response.Usage : {};
  const prompt = num(usage.PromptTokens);
  return {
    object: 'list',
    data,
    model: context.upstreamModel,
    usage: { prompt_tokens: prompt, total_tokens: num(usage.TotalTokens) || prompt },
  };
}

export const hunyuanEmbeddings: WholeBodyAdapter = {
  build(body, context) {
    const encoding = encodingOf(body);
    encodings.set(context, encoding);
    const credentials = hunyuanCredentials(context.key);
    if (credentials) {
      return tencentCall(context, credentials, 'GetEmbedding', nativeInput(body.input));
    }
    // The compatible API answers floats; base64 is made here when asked.
    const { encoding_format: _format, ...rest } = body;
    return {
      url: compatibleUrl(context, '/v1/embeddings'),
      headers: { ...context.headers, 'content-type': 'application/json', authorization: `Bearer ${context.key}` },
      body: JSON.stringify({ ...rest, model: context.upstreamModel }),
    };
  },
  errorStatus: hunyuanErrorStatus,
  parse(body, context) {
    const encoding = encodings.get(context) ?? 'float';
    if (hunyuanCredentials(context.key)) return parseNative(body, context, encoding);
    const parsed = upstreamObject(body, 'answer');
    if (!Array.isArray(parsed.data)) throw new Error("the upstream's answer has no data");
    if (encoding === 'float') return parsed;
    const data = parsed.data.map((entry) =>
      isRecord(entry) && Array.isArray(entry.embedding)
        ? { ...entry, embedding: float32Base64(entry.embedding as number[]) }
        : entry,
    );
    return { ...parsed, data };
  },
};
