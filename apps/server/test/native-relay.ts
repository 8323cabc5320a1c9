import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { providerType } from '../src/domain/channel-types/registry.js';
import { type NativeUpstreams, startNativeUpstreams } from './mocks/native-upstreams.js';
import { type RelayTestContext, startRelayTest } from './relay-setup.js';

export const CLAUDE = 'claude-sonnet-4-6';
export const GEMINI = 'gemini-2.5-flash';

/** A relay with an Anthropic and a Gemini channel on the native mock, and both SDKs as clients. */
export interface NativeRelay {
  r: RelayTestContext;
  native: NativeUpstreams;
  /** The relay's address without `/v1`, where the Anthropic and Gemini SDKs point. */
  origin: string;
  claude: Anthropic;
  gemini: GoogleGenAI;
  close(): Promise<void>;
}

type Price = { input: number; output: number };

/** The Anthropic and Gemini SDKs pointed at a running relay, with its key. */
export function nativeClients(r: RelayTestContext): { origin: string; claude: Anthropic; gemini: GoogleGenAI } {
  const origin = r.baseURL.replace(/\/v1$/, '');
  return {
    origin,
    claude: new Anthropic({ apiKey: r.apiKey, baseURL: origin, maxRetries: 0 }),
    gemini: new GoogleGenAI({ apiKey: r.apiKey, httpOptions: { baseUrl: `${origin}/gemini` } }),
  };
}

export async function startNativeRelay(prices: { claude: Price; gemini: Price }): Promise<NativeRelay> {
  const r = await startRelayTest();
  const native = await startNativeUpstreams();
  await r.addChannel({
    name: 'claude',
    type: providerType('anthropic'),
    key: native.behaviour.anthropicKey,
    base_url: native.url,
    models: CLAUDE,
  });
  await r.addChannel({
    name: 'gemini',
    type: providerType('gemini'),
    key: native.behaviour.geminiKey,
    base_url: native.url,
    models: GEMINI,
  });
  await r.setPrice(CLAUDE, prices.claude.input, prices.claude.output);
  await r.setPrice(GEMINI, prices.gemini.input, prices.gemini.output);
  return {
    r,
    native,
    ...nativeClients(r),
    async close() {
      await r.close();
      await native.close();
    },
  };
}
