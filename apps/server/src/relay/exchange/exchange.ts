import { providerByType } from '../../domain/channel-types/registry.js';
import { AppError } from '../../platform/errors.js';
import type { ChatAdapter, WholeEndpointPath } from '../providers/types.js';
import { nativeExchange } from './native.js';
import { openAiPassThrough } from './pass-through.js';
import { translatedChat, translatedWhole } from './translated.js';
import type { ChannelFlags, Endpoint, Exchange } from './types.js';

/**
 * Which exchange takes an endpoint to a channel. The same wire format passes through (OpenAI's
 * endpoints to OpenAI-format channels, a surface to a channel of its own format); any other chat
 * is translated through the channel's adapter; other endpoints (embeddings, rerank, images,
 * speech) are translated whole where the adapter serves them. Anything else the channel cannot serve, and another channel may.
 */
export function exchangeFor(
  endpoint: Endpoint,
  channelType: number,
  upstreamModel: string,
  adapter: ChatAdapter | undefined,
  /** The channel's flags that decide between passing through and translating (compatible_response). */
  channel?: ChannelFlags,
): Exchange {
  // A type without an adapter is listed so its stored channels load, but never called (domain/channel-types/registry.ts).
  if (!adapter) return withoutAdapter;
  if (endpoint.onlyFormat !== undefined && adapter.format !== endpoint.onlyFormat) return unsupported;
  const { surface } = endpoint;
  if (!surface) {
    // An OpenAI-format upstream may still serve some endpoints in a format of its own (images).
    if (adapter.endpoints?.[endpoint.path as WholeEndpointPath]) return translatedWhole;
    return speaksOpenAi(adapter) ? openAiPassThrough : unsupported;
  }
  if (adapter.chat === false) return unsupported;
  const passThrough = surface.passThrough(channelType, upstreamModel, adapter, channel);
  if (passThrough === undefined) return translatedChat;
  return passThrough === 'openai' ? openAiPassThrough : nativeExchange(passThrough);
}

/** Whether a channel speaks OpenAI's format: its type's adapter is OpenAI's. */
export const speaksOpenAi = (adapter: ChatAdapter | undefined): boolean => adapter?.speaksOpenAi === true;

/** The channel's type has no adapter yet; another channel may serve the request. */
const withoutAdapter: Exchange = async ({ channel }) => {
  const provider = providerByType(channel.type);
  const typeName = provider?.name ?? `unknown type ${channel.type}`;
  const reason = provider?.retired ?? 'which this gateway cannot relay to yet';
  const error = new AppError(
    'unavailable',
    `channel #${channel.id} (${channel.name}) is a ${typeName} channel, ${reason}`,
    { details: { code: 'unsupported_channel_type' } },
  );
  return { error, retry: true, disable: false, coolDown: false };
};

/** This channel's upstream has no such endpoint; another channel may. */
const unsupported: Exchange = async ({ channel, endpoint }) => {
  const error = new AppError('bad_request', `channel #${channel.id} (${channel.name}) cannot serve ${endpoint.path}`, {
    details: { code: 'unsupported_endpoint' },
  });
  return { error, retry: true, disable: false, coolDown: false };
};
