import { request } from 'undici';
import { type AdapterName, providerRegistry } from '../../domain/channel-types/registry.js';
import { anthropicAdapter } from './anthropic/adapter.js';
import { azureSpeechAdapter } from './azure-speech/adapter.js';
import { createBaiduAdapter } from './baidu/adapter.js';
import { BaiduTokens } from './baidu/token.js';
import { cloudflareAdapter } from './cloudflare/adapter.js';
import { cohereAdapter } from './cohere/adapter.js';
import { cozeAdapter } from './coze/adapter.js';
import { geminiAdapter } from './gemini/adapter.js';
import { hunyuanAdapter } from './hunyuan/adapter.js';
import { minimaxAdapter } from './minimax/adapter.js';
import { openAiAdapter } from './openai/adapter.js';
import { recraftAdapter } from './recraft/adapter.js';
import { createReplicateAdapter } from './replicate/adapter.js';
import { stabilityAdapter } from './stability/adapter.js';
import type { ChatAdapter } from './types.js';
import { createVertexAdapter } from './vertex/adapter.js';
import { ServiceAccountTokens, type TokenPost } from './vertex/token.js';

/** Service-account token exchanges (Vertex AI): a form POST to the account's token URI. */
const postForm: TokenPost = async (url, form) => {
  const response = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  return { status: response.statusCode, body: await response.body.text() };
};

/**
 * An adapter whose module (and its libraries) loads on first use: Bedrock's AWS signer and
 * event-stream codec cost about 12 MB that an installation without Bedrock channels never needs.
 * Every call of an exchange starts with `buildChat`, so the rest finds the module loaded.
 */
function loadedOnFirstUse(format: ChatAdapter['format'], load: () => Promise<ChatAdapter>): ChatAdapter {
  let adapter: ChatAdapter | undefined;
  const loaded = (): ChatAdapter => {
    if (!adapter) throw new Error('the adapter was used before its first request was built');
    return adapter;
  };
  return {
    format,
    async buildChat(request, context) {
      adapter ??= await load();
      return adapter.buildChat(request, context);
    },
    parseChat: (body, context) => loaded().parseChat(body, context),
    decodeStream: (context) => loaded().decodeStream(context),
    parseError: (status, body) => loaded().parseError(status, body),
  };
}

/** Every adapter by the name registry entries give it. */
const adapterByName: Record<AdapterName, ChatAdapter> = {
  openai: openAiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  bedrock: loadedOnFirstUse('openai', async () => (await import('./bedrock/adapter.js')).bedrockAdapter),
  cohere: cohereAdapter,
  // Tokens are cached per service account for the life of the process.
  vertex: createVertexAdapter(new ServiceAccountTokens(postForm, Date.now)),
  'azure-speech': azureSpeechAdapter,
  recraft: recraftAdapter,
  minimax: minimaxAdapter,
  // Access tokens of Baidu application keys, cached per key for the life of the process.
  baidu: createBaiduAdapter(new BaiduTokens(postForm, Date.now)),
  hunyuan: hunyuanAdapter,
  coze: cozeAdapter,
  stability: stabilityAdapter,
  // Predictions are polled with the default pauses, up to 5 minutes a run.
  replicate: createReplicateAdapter(),
  cloudflare: cloudflareAdapter,
};

/** The adapter of each channel type, from its registry entry; types without one are absent. */
const adapters = new Map<number, ChatAdapter>();
for (const provider of providerRegistry.values()) {
  if (provider.adapter) adapters.set(provider.type, adapterByName[provider.adapter]);
}

/** The channel type's adapter (OpenAI's for every OpenAI-format type), or undefined: the gateway cannot call it. */
export function chatAdapterFor(channelType: number): ChatAdapter | undefined {
  return adapters.get(channelType);
}

/** Replaces a type's adapter; tests use it to point token exchanges at a local mock. */
export const registerChatAdapter = (type: number, adapter: ChatAdapter): void => void adapters.set(type, adapter);
