import { anthropicStreamDecoder, buildAnthropicBody, completionFromMessage } from '../anthropic/adapter.js';
import { isRecord, parseDataUrl } from '../anthropic/common.js';
import { addChannelParameters } from '../channel-parameters.js';
import type {
  AdapterContext,
  ChatAdapter,
  ChatChunk,
  ChatMessage,
  ChatRequest,
  Json,
  StreamDecoder,
  UpstreamCall,
  UpstreamErrorInfo,
} from '../types.js';
import { upstreamObject } from '../values.js';
import { buildConverseBody, completionFromConverse, converseStreamDecoder } from './converse.js';
import { EventStreamSplitter, payloadJson, type StreamMessage, streamFailure } from './eventstream.js';
import { bedrockModelId, claudeFamilyName, encodeModelId, isClaudeModel, splitThinking } from './models.js';
import { authenticate, parseBedrockKey, runtimeEndpoint } from './signing.js';

/**
 * Amazon Bedrock (channel type `bedrock`). Claude models are called through InvokeModel
 * (`/model/<id>/invoke`, `/invoke-with-response-stream`) with Anthropic's Messages body, built by
 * the Anthropic translation and wrapped for Bedrock (`anthropic_version: bedrock-2023-05-31`, no
 * `model` or `stream` in the body); every other model through the Converse API (converse.ts).
 * Calls are signed with SigV4 over the exact body bytes sent (or carry a Bedrock API key as a
 * bearer token). Streams come in AWS event-stream framing: InvokeModel's `chunk` events carry
 * base64 Anthropic events, which go through the Anthropic stream translation unchanged.
 *
 * Documented choices:
 * - The key is `Region|AccessKeyId|SecretAccessKey[|SessionToken]` or `Region|APIKey`; the channel
 *   base URL, when set, replaces `https://bedrock-runtime.<region>.amazonaws.com`.
 * - The signing time is the request's start (`context.now`); AWS accepts five minutes of skew.
 * - Image and document URLs must be base64 data URLs: Bedrock takes no web URLs and this adapter
 *   fetches nothing, so a web URL is refused by naming the field (another channel may serve it).
 * - A channel header `anthropic-beta` becomes the body's `anthropic_beta` list, where Bedrock
 *   reads betas; other channel headers are sent unsigned (AWS allows unsigned extra headers).
 */

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

const JSON_TYPE = 'application/json';

function betaList(value: unknown): string[] {
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string' && item !== '');
  return [];
}

/**
 * An Anthropic Messages body as Bedrock's InvokeModel takes it: `model` and `stream` out (the model
 * is in the path, streaming is the operation), `anthropic_version` in, betas in `anthropic_beta`.
 */
export function toBedrockClaudeBody(body: Json, anthropicBeta?: string): Json {
  const { model: _model, stream: _stream, anthropic_version: _version, anthropic_beta: beta, ...rest } = body;
  const betas = [...new Set([...betaList(beta), ...betaList(anthropicBeta)])];
  return {
    anthropic_version: BEDROCK_ANTHROPIC_VERSION,
    ...rest,
    ...(betas.length > 0 ? { anthropic_beta: betas } : {}),
  };
}

/** Refuses web image URLs up front, with the path of the client's field. */
function requireInlineImages(messages: ChatMessage[]): void {
  if (!Array.isArray(messages)) return;
  messages.forEach((message, index) => {
    if (!isRecord(message) || !Array.isArray(message.content)) return;
    message.content.forEach((part, at) => {
      const loose = part as unknown as Json;
      if (loose.type !== 'image_url' || !isRecord(loose.image_url)) return;
      const url = loose.image_url.url;
      if (typeof url === 'string' && !parseDataUrl(url)) {
        throw new Error(
          `messages[${index}].content[${at}].image_url.url: Bedrock takes images as base64 data URLs only, not web URLs`,
        );
      }
    });
  });
}

function splitHeaders(headers: Record<string, string>): { beta?: string; rest: Record<string, string> } {
  const rest: Record<string, string> = {};
  let beta: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'anthropic-beta') beta = value;
    else rest[name] = value;
  }
  return { ...(beta !== undefined ? { beta } : {}), rest };
}

/** Signs and assembles one call to `<base>/model/<id>/<action>`. */
async function bedrockCall(
  context: AdapterContext,
  modelId: string,
  action: string,
  body: Json,
  extraHeaders: Record<string, string>,
  stream: boolean,
): Promise<UpstreamCall> {
  const credentials = parseBedrockKey(context.key);
  const base = (context.baseUrl || runtimeEndpoint(credentials.region)).replace(/\/+$/, '');
  const url = new URL(`${base}/model/${encodeModelId(modelId)}/${action}`);
  // Signed below: the channel's parameters join the body first (channel-parameters.ts).
  if (context.parameters) addChannelParameters(body, context.parameters, modelId, 'send');
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  const own: Record<string, string> = { 'content-type': JSON_TYPE };
  if (stream) own['x-amzn-bedrock-accept'] = JSON_TYPE;
  else own.accept = JSON_TYPE;
  const signed = await authenticate(credentials, url, bytes, own, new Date(context.now * 1000));
  // Extra channel headers go unsigned and can never replace a signed one.
  const extra = Object.fromEntries(Object.entries(extraHeaders).filter(([name]) => !(name.toLowerCase() in signed)));
  return { url: url.toString(), headers: { ...extra, ...signed }, body: bytes, sealed: true };
}

// ---- event stream → Anthropic SSE ----

/** One InvokeModel stream message → the Anthropic SSE frame it carries ('' for other events). */
function anthropicFrame(message: StreamMessage): string {
  if (message.kind !== 'event') throw streamFailure(message);
  if (message.type !== 'chunk') return '';
  const payload = payloadJson(message);
  if (typeof payload.bytes !== 'string') throw new Error("the upstream's chunk event has no bytes");
  const text = Buffer.from(payload.bytes, 'base64').toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new Error(`the upstream's chunk is not an Anthropic event: ${text.slice(0, 100)}`);
  }
  if (!isRecord(event) || typeof event.type !== 'string') {
    throw new Error(`the upstream's chunk is not an Anthropic event: ${text.slice(0, 100)}`);
  }
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Re-frames InvokeModelWithResponseStream bytes (Claude) as the Anthropic SSE text an Anthropic
 * client expects; an exception message throws an Error with its text.
 */
export function bedrockToAnthropicSse(): { push(bytes: Buffer): string; end(): string } {
  const splitter = new EventStreamSplitter();
  return {
    push(bytes) {
      let text = '';
      for (const message of splitter.push(bytes)) text += anthropicFrame(message);
      return text;
    },
    end() {
      splitter.finish();
      return '';
    },
  };
}

function claudeStreamDecoder(context: AdapterContext): StreamDecoder {
  const frames = bedrockToAnthropicSse();
  const inner = anthropicStreamDecoder(context);
  return {
    push(bytes) {
      const text = frames.push(bytes);
      return text ? inner.push(Buffer.from(text, 'utf8')) : [];
    },
    end(): ChatChunk[] {
      frames.end();
      return inner.end();
    },
  };
}

// ---- Anthropic clients straight to Bedrock Claude ----

/**
 * An Anthropic Messages body from an Anthropic client (unchanged but for the model) as a Bedrock
 * InvokeModel call for the context's model; `anthropicBeta` is the client's `anthropic-beta`
 * header, if any. The answer is Anthropic's own JSON; a stream needs `bedrockToAnthropicSse`.
 */
export async function bedrockAnthropicCall(
  body: Json,
  context: AdapterContext,
  anthropicBeta?: string,
): Promise<UpstreamCall> {
  const modelId = bedrockModelId(context.upstreamModel);
  if (!isClaudeModel(modelId)) {
    throw new Error(`model "${modelId}" is not a Claude model: only Claude takes Anthropic requests on Bedrock`);
  }
  const { beta, rest } = splitHeaders(context.headers);
  const joined = [beta, anthropicBeta].filter(Boolean).join(',');
  const action = context.stream ? 'invoke-with-response-stream' : 'invoke';
  return bedrockCall(context, modelId, action, toBedrockClaudeBody(body, joined || undefined), rest, context.stream);
}

// ---- errors ----

const EXCEPTION_BY_STATUS: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

function errorType(status: number, code: string | undefined, message: string): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) {
    const credentials =
      code === 'UnrecognizedClientException' ||
      code === 'InvalidSignatureException' ||
      /signature|security token|credential|api key|bearer/i.test(message);
    return credentials ? 'authentication_error' : 'permission_error';
  }
  if (status === 400 || status === 422) return 'invalid_request_error';
  if (status === 404) return 'not_found_error';
  if (status === 408) return 'timeout_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'overloaded_error';
  return 'api_error';
}

/** `ValidationException:http://internal.amazon.com/coral/…` or `com.amazon…#ThrottlingException` → the name. */
function exceptionName(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  const name = value.split(':')[0]?.split('#').at(-1);
  return name || undefined;
}

/**
 * Bedrock errors are `{"message": "…"}` (sometimes `Message`), the exception name travelling in the
 * `x-amzn-ErrorType` header, which this reader does not get: the name is taken from `__type` when
 * the body has it, else from the status as Bedrock documents it. The message is kept verbatim
 * (the relay looks for phrases such as "Operation not allowed" in it).
 */
export function parseBedrockError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  let message: string | undefined;
  let name: string | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      const found = parsed.message ?? parsed.Message;
      if (typeof found === 'string') message = found;
      else if (isRecord(parsed.error) && typeof parsed.error.message === 'string') message = parsed.error.message;
      name = exceptionName(parsed.__type) ?? exceptionName(parsed.code);
    }
  } catch {
    // A proxy's HTML page or plain text: the text is the message.
  }
  message ??= text.trim().slice(0, 500) || `HTTP ${status}`;
  const code = name ?? EXCEPTION_BY_STATUS[status];
  return { status, message, type: errorType(status, code, message), ...(code ? { code } : {}) };
}

// ---- the adapter ----

export const bedrockAdapter: ChatAdapter = {
  // Neither Anthropic's wire format (InvokeModel wraps it) nor any other: no surface may pass a
  // client's body through unchanged. Anthropic clients reach Claude by translation, or by
  // `bedrockAnthropicCall` where the relay wires it.
  format: 'openai',
  // Bedrock takes image bytes only: web images are fetched by the gateway first.
  inlineImages: true,
  async buildChat(request: ChatRequest, context: AdapterContext): Promise<UpstreamCall> {
    parseBedrockKey(context.key);
    requireInlineImages(request.messages);
    const modelId = bedrockModelId(context.upstreamModel);
    const { beta, rest } = splitHeaders(context.headers);
    if (isClaudeModel(modelId)) {
      const { thinking } = splitThinking(context.upstreamModel);
      const family = `${claudeFamilyName(modelId)}${thinking ? '#thinking' : ''}`;
      const body = toBedrockClaudeBody(buildAnthropicBody(request, family, false, context.settings), beta);
      const action = context.stream ? 'invoke-with-response-stream' : 'invoke';
      return bedrockCall(context, modelId, action, body, rest, context.stream);
    }
    const action = context.stream ? 'converse-stream' : 'converse';
    return bedrockCall(context, modelId, action, buildConverseBody(request), rest, context.stream);
  },
  parseChat(body, context) {
    const answer = upstreamObject(body, 'answer');
    return isClaudeModel(bedrockModelId(context.upstreamModel))
      ? completionFromMessage(answer, context)
      : completionFromConverse(answer, context);
  },
  decodeStream(context) {
    return isClaudeModel(bedrockModelId(context.upstreamModel))
      ? claudeStreamDecoder(context)
      : converseStreamDecoder(context);
  },
  parseError: parseBedrockError,
};
