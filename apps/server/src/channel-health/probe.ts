import type { RoutingChannel } from '../api/channel/service.js';
import { type ProviderDefinition, providerByType } from '../domain/channel-types/registry.js';
import { AppError } from '../platform/errors.js';
import { adminMessage, maskKey, type UpstreamFailure } from '../relay/exchange/upstream-errors.js';
import type { UpstreamClient } from '../relay/transport/executor.js';
import { callChannel, type ProbePath } from './channel-call.js';

/**
 * One synthetic request to a channel, chosen by the model's kind, timed from sending to the last
 * byte of the answer, through the relay's exchange (channel-call.ts). Nothing is billed or logged.
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

const HELLO = [{ role: 'user', content: "You just need to output 'hi' next." }];

function probeRequest(kind: Exclude<ProbeKind, 'unsupported'>): { path: ProbePath; body: Record<string, unknown> } {
  switch (kind) {
    case 'embeddings':
      return { path: '/v1/embeddings', body: { input: 'hi' } };
    case 'image':
      return { path: '/v1/images/generations', body: { prompt: 'A cute cat', n: 1 } };
    default:
      return { path: '/v1/chat/completions', body: { messages: HELLO, stream: false } };
  }
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

export { disableKeywords } from '../relay/exchange/upstream-errors.js';

/**
 * Speech-only channels (Azure Speech) are tested by speaking a word, whatever the model: cheap, and
 * it checks the key, the region and the voice. Their address may come from the region, not a base URL.
 */
function speechProbe(channel: RoutingChannel) {
  return { baseUrl: channel.base_url, path: '/v1/audio/speech' as const, body: { input: 'hi', voice: 'alloy' } };
}

/** The request that tests `model` on the channel; a 400 for models the channel type cannot be tested with. */
function probeFor(channel: RoutingChannel, provider: ProviderDefinition, model: string) {
  if (provider.test === 'speech') return speechProbe(channel);
  // Image-only types (Stability) make one image, whatever the model's name says.
  if (provider.test === 'image') return { baseUrl: channelBaseUrl(channel, provider), ...probeRequest('image') };
  const kind = probeKind(model);
  if (kind === 'unsupported') throw AppError.badRequest('model: testing this kind of model is not supported');
  if (provider.test === 'adapter-chat' && kind !== 'chat') {
    throw AppError.badRequest(`model: ${provider.name} channels can be tested with chat models only`);
  }
  return { baseUrl: channelBaseUrl(channel, provider), ...probeRequest(kind) };
}

/** Sends the probe for `model`; throws a 400 for models or channel types that cannot be tested. */
export async function probeChannel(
  upstream: UpstreamClient,
  channel: RoutingChannel,
  model: string,
  keywords: string[],
  stop?: AbortSignal,
): Promise<ProbeResult> {
  const provider = testableProvider(channel);
  const probe = probeFor(channel, provider, model);
  const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  const { failure, elapsedMs } = await callChannel(upstream, {
    channel,
    ...probe,
    model,
    keywords,
    signal: stop ? AbortSignal.any([stop, timeout]) : timeout,
    limit: MAX_PROBE_ANSWER,
  });
  if (!failure) return { success: true, message: '', elapsedMs };
  return { success: false, message: maskKey(adminMessage(failure), channel.key), elapsedMs, failure };
}
