import { fieldError } from '../../../platform/errors.js';
import { openAiAdapter, parseOpenAiError } from '../openai/adapter.js';
import {
  type GeneratedImage,
  imageCountOf,
  imagesAnswer,
  imageTypeOf,
  responseFormatOf,
  seedOf,
  sizeOf,
} from '../stability/images.js';
import type { AdapterContext, ChatAdapter, Json, UpstreamCall, UpstreamErrorInfo, WholeBodyAdapter } from '../types.js';
import { isRecord, upstreamObject } from '../values.js';
import { transcriptions } from './transcription.js';

/**
 * Cloudflare Workers AI. The key is `ACCOUNT_ID|API_TOKEN`; every call goes under the account's
 * AI root, `{base}/client/v4/accounts/<account>/ai`, with the token as a bearer key. Chat and
 * embeddings use Workers AI's OpenAI-compatible endpoints (`/v1/chat/completions`,
 * `/v1/embeddings`): chat through OpenAI's own translation at that address, streams included.
 * Images run the model itself (`POST /run/<model>`): FLUX answers JSON `{result: {image}}`
 * (base64), Stable Diffusion answers the image bytes; both are told apart by the bytes.
 * Transcriptions run a Whisper model on the form's audio (transcription.ts).
 */

export const CLOUDFLARE_FORMAT = 'cloudflare';

export function cloudflareCredentials(key: string): { account: string; token: string } {
  const separator = key.indexOf('|');
  const account = separator < 0 ? '' : key.slice(0, separator).trim();
  const token = separator < 0 ? '' : key.slice(separator + 1).trim();
  if (!account || !token) throw new Error("a Cloudflare channel's key must be ACCOUNT_ID|API_TOKEN");
  return { account, token };
}

/** The account's AI root; a base URL that already is one (`…/accounts/<id>/ai`) is used as it is. */
export function aiRoot(context: AdapterContext): string {
  if (/\/accounts\/[^/]+\/ai$/.test(context.baseUrl)) return context.baseUrl;
  const { account } = cloudflareCredentials(context.key);
  return `${context.baseUrl}/client/v4/accounts/${encodeURIComponent(account)}/ai`;
}

function jsonCall(context: AdapterContext, url: string, body: Json): UpstreamCall {
  const { token } = cloudflareCredentials(context.key);
  return {
    url,
    headers: { ...context.headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

const embeddings: WholeBodyAdapter = {
  build: (request, context) => jsonCall(context, `${aiRoot(context)}/v1/embeddings`, request),
  parse(body) {
    const answer = upstreamObject(body, 'answer');
    if (!Array.isArray(answer.data)) throw new Error('the embeddings answer has no data');
    return answer;
  },
};

/** OpenAI's fields that are no model input. */
const OPENAI_IMAGE_FIELDS = new Set(['model', 'n', 'size', 'response_format', 'quality', 'style', 'user']);
/** Models whose documented input has no width and height. */
const WITHOUT_SIZE = /flux-1-schnell/;

/** The input of the `index`-th image: OpenAI's fields translated, the client's other fields as they are. */
function imageInput(request: Json, model: string, index: number): Json {
  if (typeof request.prompt !== 'string' || !request.prompt) throw fieldError('prompt', 'a text prompt is required');
  const input: Json = {};
  for (const [field, value] of Object.entries(request)) {
    if (!OPENAI_IMAGE_FIELDS.has(field) && value !== undefined && value !== null) input[field] = value;
  }
  const size = sizeOf(request);
  if (size && !WITHOUT_SIZE.test(model)) Object.assign(input, size);
  const seed = seedOf(request);
  if (seed !== undefined) input.seed = seed + index;
  return input;
}

function runCall(request: Json, context: AdapterContext, index: number): UpstreamCall {
  const model = context.upstreamModel.trim();
  if (!model) throw fieldError('model', 'a Workers AI model such as @cf/black-forest-labs/flux-1-schnell is required');
  return jsonCall(context, `${aiRoot(context)}/run/${model}`, imageInput(request, model, index));
}

/** One model answer: image bytes as they are, or JSON holding the image as base64. */
function generatedImage(body: Buffer): GeneratedImage {
  const contentType = imageTypeOf(body);
  if (contentType) return { base64: body.toString('base64'), contentType };
  const answer = upstreamObject(body, 'answer');
  const image = isRecord(answer.result) ? answer.result.image : undefined;
  if (typeof image !== 'string' || !image) {
    throw new Error(`the model answered without an image${answer.success === false ? `: ${errorsText(answer)}` : ''}`);
  }
  const bytes = Buffer.from(image, 'base64');
  return { base64: image, contentType: imageTypeOf(bytes) ?? 'image/jpeg' };
}

const imageGenerations: WholeBodyAdapter = {
  build(request, context) {
    responseFormatOf(request); // refused before anything runs
    return runCall(request, context, 0);
  },
  async parse(body, context, follow, request: Json = {}) {
    const first = generatedImage(body);
    // A model run makes one image: the others are asked for together, each with its own seed.
    const others = Array.from({ length: imageCountOf(request) - 1 }, async (_, offset) => {
      const call = runCall(request, context, offset + 1);
      const answer = await follow({ url: call.url, method: 'POST', headers: call.headers, body: call.body });
      return generatedImage(answer.body);
    });
    return imagesAnswer([first, ...(await Promise.all(others))], responseFormatOf(request), context.now);
  },
};

function errorsText(answer: Json): string {
  const errors = Array.isArray(answer.errors) ? answer.errors : [];
  return errors
    .map((error) =>
      isRecord(error) ? `${error.message ?? ''}${error.code !== undefined ? ` (${error.code})` : ''}` : '',
    )
    .filter(Boolean)
    .join('; ');
}

/** Cloudflare's envelope `{success: false, errors: [{code, message}]}`, else OpenAI's error format. */
export function parseCloudflareError(status: number, body: Buffer): UpstreamErrorInfo {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return parseOpenAiError(status, body);
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.errors) || parsed.errors.length === 0) {
    return parseOpenAiError(status, body);
  }
  const first = parsed.errors[0];
  const code = isRecord(first) && first.code !== undefined ? String(first.code) : undefined;
  const message = errorsText(parsed) || `HTTP ${status}`;
  // 10000 is Cloudflare's "Authentication error": a bad or unauthorised token.
  if (status === 401 || code === '10000') return { status, message, type: 'authentication_error' };
  return { status, message, ...(code ? { code } : {}) };
}

export const cloudflareAdapter: ChatAdapter = {
  format: CLOUDFLARE_FORMAT,
  endpoints: {
    '/v1/embeddings': embeddings,
    '/v1/images/generations': imageGenerations,
    '/v1/audio/transcriptions': transcriptions({
      credentials: (context) => ({ root: aiRoot(context), token: cloudflareCredentials(context.key).token }),
    }),
  },
  buildChat(request, context) {
    const { token } = cloudflareCredentials(context.key);
    // OpenAI's own request at the account's OpenAI-compatible root, as a plain bearer-key vendor.
    const { channelType: _type, ...rest } = context;
    return openAiAdapter.buildChat(request, { ...rest, baseUrl: aiRoot(context), key: token });
  },
  parseChat: openAiAdapter.parseChat,
  decodeStream: openAiAdapter.decodeStream,
  parseError: parseCloudflareError,
};
