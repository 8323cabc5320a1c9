import type { RoutingChannel } from '../api/channel/service.js';
import { AppError } from '../platform/errors.js';
import {
  adminMessage,
  classifyAdapterError,
  classifyUpstreamError,
  maskKey,
  networkFailure,
  type UpstreamFailure,
} from '../relay/exchange/upstream-errors.js';
import { chatAdapterFor } from '../relay/providers/adapters.js';
import { mapModel, prepareOpenAiRequest } from '../relay/providers/openai/request.js';
import { type ProviderDefinition, providerByType } from '../relay/providers/registry.js';
import type { ChatAdapter } from '../relay/providers/types.js';
import { readBody, type UpstreamClient } from '../relay/transport/executor.js';

/**
 * One synthetic request to a channel, chosen by the model's kind, timed from sending to the last
 * byte of the answer. Nothing is billed or logged: the relay pipeline is not involved.
 */
export type ProbeKind = 'chat' | 'embeddings' | 'image' | 'unsupported';

export interface ProbeResult {
  /** The upstream answered 2xx. */
  success: boolean;
  /** Empty on success; otherwise the upstream's error. */
  message: string;
  elapsedMs: number;
  /** Set when the upstream answered with an error or could not be reached. */
  failure?: UpstreamFailure;
}

const UNSUPPORTED_MODELS = /^tts|rerank|whisper|speech|^mj_|^chirp/;
const EMBEDDING_MODELS =
  /^text-|embed|Embed|davinci|babbage|bge-|e5-|LLM2Vec|retrieval|uae-|gte-|jina-clip|jina-embeddings/;
const IMAGE_MODELS = /flux|diffusion|stabilityai|sd-|dall|cogview|janus|image/;

/** An answer larger than this is not a test answer; reading stops there. */
const MAX_PROBE_ANSWER = 16 * 1024 * 1024;
/** A test waits at most this long; the relay's own timeouts are far longer. */
const PROBE_TIMEOUT_MS = 60_000;

export function probeKind(model: string): ProbeKind {
  if (UNSUPPORTED_MODELS.test(model)) return 'unsupported';
  if (EMBEDDING_MODELS.test(model)) return 'embeddings';
  if (IMAGE_MODELS.test(model)) return 'image';
  return 'chat';
}

function probeRequest(kind: Exclude<ProbeKind, 'unsupported'>, prefix: string) {
  switch (kind) {
    case 'embeddings':
      return { path: `${prefix}/embeddings`, body: { input: 'hi' } };
    case 'image':
      return { path: `${prefix}/images/generations`, body: { prompt: 'A cute cat', n: 1 } };
    default:
      return {
        path: `${prefix}/chat/completions`,
        body: { messages: [{ role: 'user', content: "You just need to output 'hi' next." }], stream: false },
      };
  }
}

/** Whether the channel takes OpenAI-format requests (compatible vendors and Azure, see `openAiTarget`). */
export function speaksOpenAi(provider: ProviderDefinition | undefined): boolean {
  return provider?.adapter === 'openai';
}

/** The provider of a channel the tests can reach, or a 400 saying why not. */
export function testableProvider(channel: Pick<RoutingChannel, 'type'>): ProviderDefinition {
  const provider = providerByType(channel.type);
  if (!provider?.test) {
    const type = provider ? `${provider.name} channels` : `channels of type ${channel.type}`;
    throw AppError.badRequest(`testing ${type} is not supported yet`);
  }
  return provider;
}

export function channelBaseUrl(channel: Pick<RoutingChannel, 'base_url'>, provider: ProviderDefinition): string {
  const baseUrl = channel.base_url || provider.defaultBaseUrl;
  if (!baseUrl) throw AppError.badRequest(`base_url: the channel has none and ${provider.name} has no default`);
  return baseUrl;
}

export function disableKeywords(raw: string): string[] {
  return raw
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Sends the probe for `model`; throws a 400 for models or channel types that cannot be tested. */
export async function probeChannel(
  upstream: UpstreamClient,
  channel: RoutingChannel,
  model: string,
  keywords: string[],
  stop?: AbortSignal,
): Promise<ProbeResult> {
  const kind = probeKind(model);
  if (kind === 'unsupported') throw AppError.badRequest('model: testing this kind of model is not supported');
  const provider = testableProvider(channel);
  const adapter = chatAdapterFor(channel.type);
  if (provider.test === 'adapter-chat' && adapter) {
    if (kind !== 'chat')
      throw AppError.badRequest(`model: ${provider.name} channels can be tested with chat models only`);
    return probeWithAdapter(upstream, channel, provider, adapter, model, keywords, stop);
  }
  const { path, body } = probeRequest(kind, provider.apiPrefix ?? '/v1');
  const prepared = prepareOpenAiRequest(channel, channelBaseUrl(channel, provider), path, body, model);
  const startedAt = performance.now();
  try {
    const response = await upstream.send({
      url: prepared.url,
      headers: prepared.headers,
      body: prepared.body,
      proxy: channel.proxy,
      signal: stop
        ? AbortSignal.any([stop, AbortSignal.timeout(PROBE_TIMEOUT_MS)])
        : AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const text = (await readBody(response.body, MAX_PROBE_ANSWER)).toString('utf8');
    const elapsedMs = performance.now() - startedAt;
    if (response.status >= 200 && response.status < 300) return { success: true, message: '', elapsedMs };
    const failure = classifyUpstreamError(response.status, text, keywords);
    return { success: false, message: maskKey(adminMessage(failure), channel.key), elapsedMs, failure };
  } catch (error) {
    const failure = networkFailure(error);
    const elapsedMs = performance.now() - startedAt;
    return { success: false, message: maskKey(adminMessage(failure), channel.key), elapsedMs, failure };
  }
}

/** The chat probe for a channel whose upstream has its own format (Anthropic, Gemini…). */
async function probeWithAdapter(
  upstream: UpstreamClient,
  channel: RoutingChannel,
  provider: ProviderDefinition,
  adapter: ChatAdapter,
  requested: string,
  keywords: string[],
  stop?: AbortSignal,
): Promise<ProbeResult> {
  const { upstreamModel } = mapModel(channel, requested);
  const startedAt = performance.now();
  const fail = (failure: UpstreamFailure): ProbeResult => ({
    success: false,
    message: maskKey(adminMessage(failure), channel.key),
    elapsedMs: performance.now() - startedAt,
    failure,
  });
  try {
    const call = await adapter.buildChat(
      {
        model: upstreamModel,
        messages: [{ role: 'user', content: "You just need to output 'hi' next." }],
        stream: false,
      },
      {
        key: channel.key,
        channelType: channel.type,
        baseUrl: channelBaseUrl(channel, provider).replace(/\/+$/, ''),
        upstreamModel,
        other: channel.other,
        plugin: {},
        headers: channel.model_headers,
        stream: false,
        now: Math.floor(Date.now() / 1000),
        responseId: 'chatcmpl-channel-test',
      },
    );
    const response = await upstream.send({
      ...call,
      proxy: channel.proxy,
      signal: stop
        ? AbortSignal.any([stop, AbortSignal.timeout(PROBE_TIMEOUT_MS)])
        : AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const body = await readBody(response.body, MAX_PROBE_ANSWER);
    if (response.status >= 200 && response.status < 300) {
      return { success: true, message: '', elapsedMs: performance.now() - startedAt };
    }
    return fail(classifyAdapterError(adapter, response.status, body, keywords));
  } catch (error) {
    return fail(networkFailure(error));
  }
}
