import { isRecord, type Json } from '@one-hub/contracts';
import { type AdapterName, type NativeSurface, providerByType } from '../../domain/channel-types/registry.js';
import type { OptionReader } from '../../domain/options.js';
import type { RelayFront, RelayHttpRequest } from '../../http/relay-front.js';
import { fieldError } from '../../platform/errors.js';
import { countChatPromptTokens, estimateChatPromptTokens, type PromptCountOptions } from '../billing/metering.js';
import { chatRequestOf } from '../exchange/translated.js';
import type { Endpoint, NativePassThrough, RelayInput, SurfaceBinding } from '../exchange/types.js';
import { ANTHROPIC_VERSION } from '../providers/anthropic/common.js';
import { anthropicUsage, meterAnthropicStream } from '../providers/anthropic/native.js';
import { anthropicSurface } from '../providers/anthropic/surface.js';
import { bedrockModelId, isClaudeModel } from '../providers/bedrock/models.js';
import { geminiUrl, splitModel } from '../providers/gemini/adapter.js';
import { geminiUsage, meterGeminiStream } from '../providers/gemini/native.js';
import { geminiSurface } from '../providers/gemini/surface.js';
import { type VertexAdapter, vertexFormatOf } from '../providers/vertex/adapter.js';

/**
 * The native client surfaces: Anthropic Messages (`/v1/messages`, `/claude/v1/messages`) and
 * Gemini (`/gemini/:version/models/:model:generateContent`). A channel of the same format gets
 * the body through unchanged but for the model; any other channel is reached by translation
 * (exchange/translated.ts). Each surface authenticates with the header its SDK sends.
 */

const header = (request: RelayHttpRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** Request headers an Anthropic client sends that the upstream must see too (betas, version). */
function anthropicClientHeaders(request: RelayHttpRequest | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const beta = request && header(request, 'anthropic-beta');
  if (beta) headers['anthropic-beta'] = beta;
  return headers;
}

const anthropicNative: NativePassThrough = {
  prepare(body, context, request) {
    const version = (request && header(request, 'anthropic-version')) ?? ANTHROPIC_VERSION;
    return {
      url: `${context.baseUrl}/v1/messages`,
      headers: {
        ...context.headers,
        ...anthropicClientHeaders(request),
        'content-type': 'application/json',
        'anthropic-version': version,
        'x-api-key': context.key,
      },
      body: JSON.stringify({ ...body, model: context.upstreamModel.replace(/#thinking$/, '') }),
    };
  },
  usageOf: anthropicUsage,
  meter: meterAnthropicStream,
};

/** Bedrock's module loads on first use (see providers/adapters.ts); `prepare` always comes first. */
let bedrock: typeof import('../providers/bedrock/adapter.js') | undefined;

/** Claude on Bedrock: the Anthropic body in an InvokeModel call, its event stream re-framed as SSE. */
const bedrockClaudeNative: NativePassThrough = {
  async prepare(body, context, request) {
    bedrock ??= await import('../providers/bedrock/adapter.js');
    return bedrock.bedrockAnthropicCall(body, context, request ? header(request, 'anthropic-beta') : undefined);
  },
  usageOf: anthropicUsage,
  meter: meterAnthropicStream,
  reframe() {
    if (!bedrock) throw new Error('the Bedrock module is not loaded');
    return bedrock.bedrockToAnthropicSse();
  },
};

/** Claude and Gemini on Vertex take their own bodies; the registered Vertex adapter holds the tokens. */
function vertexNative(format: 'anthropic' | 'gemini'): NativePassThrough {
  return {
    prepare: (body, context, _request, adapter) => (adapter as VertexAdapter).vertexNativeCall(format, body, context),
    usageOf: format === 'anthropic' ? anthropicUsage : geminiUsage,
    meter: format === 'anthropic' ? meterAnthropicStream : meterGeminiStream,
  };
}
const vertexClaudeNative = vertexNative('anthropic');
const vertexGeminiNative = vertexNative('gemini');

/** A surface's pass-throughs by the channel type's adapter; some serve only some of its models. */
type PassThroughs = Partial<Record<AdapterName, (model: string) => NativePassThrough | undefined>>;

/** The pass-through of a channel whose registry entry names this surface among its native ones. */
function nativeFor(surface: NativeSurface, table: PassThroughs, channelType: number, model: string) {
  const provider = providerByType(channelType);
  if (!provider?.adapter || !provider.native.includes(surface)) return undefined;
  return table[provider.adapter]?.(model);
}

const anthropicPassThroughs: PassThroughs = {
  anthropic: () => anthropicNative,
  bedrock: (model) => (isClaudeModel(bedrockModelId(model)) ? bedrockClaudeNative : undefined),
  vertex: (model) => (vertexFormatOf(model) === 'anthropic' ? vertexClaudeNative : undefined),
};

const anthropicBinding: SurfaceBinding = {
  translator: anthropicSurface,
  passThrough: (channelType, model) => nativeFor('anthropic', anthropicPassThroughs, channelType, model),
  streamError: (message) =>
    `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`,
};

const geminiNative: NativePassThrough = {
  prepare(body, context) {
    const { model } = splitModel(context.upstreamModel);
    return {
      url: geminiUrl(context.baseUrl, context.other, model, context.stream),
      headers: { ...context.headers, 'content-type': 'application/json', 'x-goog-api-key': context.key },
      body: JSON.stringify(body),
    };
  },
  usageOf: geminiUsage,
  meter: meterGeminiStream,
};

const geminiPassThroughs: PassThroughs = {
  gemini: () => geminiNative,
  vertex: (model) => (vertexFormatOf(model) === 'gemini' ? vertexGeminiNative : undefined),
};

const geminiBinding: SurfaceBinding = {
  translator: geminiSurface,
  passThrough: (channelType, model) => nativeFor('gemini', geminiPassThroughs, channelType, model),
  streamError: (message) => `data: ${JSON.stringify({ error: { code: 500, message, status: 'INTERNAL' } })}\n\n`,
};

/** What a translated or passed-through chat request costs, from its canonical form. */
function chatCosts(binding: SurfaceBinding): Pick<Endpoint, 'estimatePrompt' | 'countPrompt' | 'validate'> {
  return {
    // Translating once here turns a malformed request into a 400 before anything is reserved.
    validate: (input: RelayInput) => void chatRequestOf(input, binding),
    estimatePrompt: (input: RelayInput, options?: PromptCountOptions) =>
      estimateChatPromptTokens(chatRequestOf(input, binding), options),
    countPrompt: (input: RelayInput) => countChatPromptTokens(chatRequestOf(input, binding)),
  };
}

export const anthropicKey = (request: RelayHttpRequest): string | undefined =>
  header(request, 'x-api-key') ?? request.headers.authorization ?? undefined;

function anthropicEndpoint(path: string): Endpoint {
  return {
    path,
    body: 'json',
    output: 'json',
    surface: anthropicBinding,
    heartbeat: true,
    credential: anthropicKey,
    isStream: (_request, fields) => fields.stream === true,
    ...chatCosts(anthropicBinding),
    usageOf: () => undefined,
  };
}

/**
 * `models/gemini-2.5-flash:streamGenerateContent` → the model and whether it streams. The rest of
 * the path, already decoded: a model named with slashes (`@cf/meta/…`, `owner/name`) is sent by
 * the SDKs as it is, in several segments.
 */
function geminiTarget(request: RelayHttpRequest): { model: string; stream: boolean } {
  const { '*': modelAction = '' } = request.params as { '*'?: string };
  const at = modelAction.lastIndexOf(':');
  const action = at >= 0 ? modelAction.slice(at + 1) : '';
  if (action !== 'generateContent' && action !== 'streamGenerateContent') {
    throw fieldError('model', `unknown method '${action}'; use generateContent or streamGenerateContent`);
  }
  return { model: modelAction.slice(0, at), stream: action === 'streamGenerateContent' };
}

/** `x-goog-api-key`, else `?key=`, else a bearer token: whatever the client's SDK sends. */
export const geminiKey = (request: RelayHttpRequest): string | undefined => {
  const query = request.query as { key?: unknown } | undefined;
  return (
    header(request, 'x-goog-api-key') ??
    (typeof query?.key === 'string' && query.key ? query.key : undefined) ??
    request.headers.authorization ??
    undefined
  );
};

export const geminiEndpoint: Endpoint = {
  path: '/gemini/:version/models/*',
  body: 'json',
  output: 'json',
  surface: geminiBinding,
  heartbeat: true,
  credential: geminiKey,
  modelOf: (request) => geminiTarget(request).model,
  isStream: (request) => geminiTarget(request).stream,
  ...chatCosts(geminiBinding),
  usageOf: () => undefined,
};

export const surfaceEndpoints: Endpoint[] = [
  anthropicEndpoint('/v1/messages'),
  anthropicEndpoint('/claude/v1/messages'),
  geminiEndpoint,
];

/** `POST /v1/messages/count_tokens`: the prompt's tokens, counted here without calling anyone. */
export function countAnthropicTokens(body: unknown): { input_tokens: number } {
  if (!isRecord(body)) throw fieldError('body', 'a JSON object is required');
  const model = typeof body.model === 'string' ? body.model : '';
  if (!model) throw fieldError('model', 'a model name is required');
  // count_tokens takes no max_tokens; the translation wants one.
  const input: RelayInput = { model, stream: false, fields: { max_tokens: 1, ...(body as Json) } };
  return { input_tokens: countChatPromptTokens(chatRequestOf(input, anthropicBinding)) };
}

/**
 * The settings that switch the native surfaces off (ClaudeAPIEnabled, GeminiAPIEnabled), read on
 * every request so a change applies at once. They cover `/claude/*` and `/gemini/*` only, as in
 * the reference: the Anthropic surface on `/v1/messages` belongs to the `/v1` API and stays on. The
 * bodies are the reference's, `code: 500` inside a 403 included, which is what its clients see.
 */
export function gateNativeSurfaces(front: Pick<RelayFront, 'gate'>, options: Pick<OptionReader, 'getBoolean'>): void {
  front.gate('/claude/', () =>
    options.getBoolean('ClaudeAPIEnabled')
      ? undefined
      : {
          status: 403,
          body: {
            type: 'one_hub_error',
            error: { type: 'api_not_supported', message: 'Claude API is not supported' },
          },
        },
  );
  front.gate('/gemini/', () =>
    options.getBoolean('GeminiAPIEnabled')
      ? undefined
      : {
          status: 403,
          body: { error: { code: 500, status: 'one_hub_error', message: 'Gemini API is not supported' } },
        },
  );
}

export { anthropicBinding, geminiBinding };
