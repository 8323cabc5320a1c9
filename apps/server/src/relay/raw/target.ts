import { providerByType, providerType } from '../../domain/channel-types/registry.js';
import { AppError } from '../../platform/errors.js';
import { AZURE_DEFAULT_API_VERSION, openAiTarget } from '../providers/openai/request.js';
import type { RouterChannel } from '../routing/router.js';

/**
 * Where a raw pass-through request goes on its channel. OpenAI's stateful APIs (files, batches,
 * fine-tuning, assistants, threads, vector stores) are not per model: OpenAI serves them under
 * `/v1`, Azure under `/openai` with the channel's `api-version` (not per deployment), Azure's v1
 * API under `/openai/v1`. Pure: no I/O.
 */

/** The channel types (by registry slug) whose upstream serves these APIs. */
const RAW_SLUGS = ['openai', 'azure', 'azure-v1'] as const;
export const RAW_CHANNEL_TYPES: readonly number[] = RAW_SLUGS.map(providerType);
const AZURE = providerType('azure');
const AZURE_V1 = providerType('azure-v1');

export function checkRawChannelType(channel: Pick<RouterChannel, 'id' | 'type'>, path: string): void {
  if (RAW_CHANNEL_TYPES.includes(channel.type)) return;
  const name = providerByType(channel.type)?.name ?? 'unknown';
  const served = RAW_SLUGS.map((slug) => `${providerByType(providerType(slug))?.name} (${providerType(slug)})`);
  throw AppError.badRequest(
    `channel ${channel.id} is of type ${channel.type} (${name}); ${path} is passed through to ${served.join(', ')} channels only`,
  );
}

/** The path and query of a request URL, the path checked for segments an upstream would resolve away. */
export function splitRequestUrl(url: string): { path: string; query: string } {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = mark < 0 ? '' : url.slice(mark + 1);
  for (const segment of path.split('/')) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // The relay front refuses undecodable paths before this.
    }
    if (decoded === '.' || decoded === '..') throw AppError.badRequest(`'${path}' is not a valid path`);
  }
  return { path, query };
}

/** The client's query without the parameters the channel sets itself. */
function keptQuery(query: string, dropped: string[]): string {
  if (!query || dropped.length === 0) return query;
  return query
    .split('&')
    .filter((pair) => !dropped.includes(decodeName(pair.split('=', 1)[0] ?? '')))
    .join('&');
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

const withQuery = (url: string, query: string) => (query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url);

/** The upstream URL (the client's query kept) and the channel's credentials, by channel type. */
export function rawTarget(
  channel: Pick<RouterChannel, 'id' | 'type' | 'key' | 'other' | 'plugin'>,
  baseUrl: string,
  url: string,
): { url: string; headers: Record<string, string> } {
  const { path, query } = splitRequestUrl(url);
  checkRawChannelType(channel, path);
  if (channel.type === AZURE) {
    const base = baseUrl.replace(/\/+$/, '');
    const version = encodeURIComponent(channel.other.trim() || AZURE_DEFAULT_API_VERSION);
    const upstream = `${base}/openai${path.replace(/^\/v1/, '')}?api-version=${version}`;
    return { url: withQuery(upstream, keptQuery(query, ['api-version'])), headers: { 'api-key': channel.key } };
  }
  const target = openAiTarget(channel, baseUrl, path, '');
  const dropped = channel.type === AZURE_V1 ? ['api-version'] : [];
  return { url: withQuery(target.url, keptQuery(query, dropped)), headers: target.headers };
}
