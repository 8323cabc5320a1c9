import { createHash } from 'node:crypto';
import { isRecord } from '@one-hub/contracts';
import { z } from 'zod';
import type { ChannelService } from '../api/channel/service.js';
import { providerByType } from '../domain/channel-types/registry.js';
import { parseInput } from '../http/validate.js';
import { AppError } from '../platform/errors.js';
import { upstreamUrl } from '../relay/providers/openai/request.js';
import type { UpstreamClient } from '../relay/transport/executor.js';
import { channelBaseUrl } from './probe.js';
import { getVendorJson } from './upstream.js';

/**
 * The model list of an upstream account, for the channel form's "fetch models" button: either the
 * channel being edited (its first key line) or a stored channel named by id.
 */
const headerMap = z.record(z.string(), z.string(), 'model_headers must map header names to text');

export const providerModelsBody = z.object({
  id: z.coerce.number('id must be a number').int('id must be an integer').nonnegative().nullish(),
  type: z.coerce.number('type must be a number').int('type must be an integer').nullish(),
  key: z.string('key must be text').max(20_000, 'key is too long').nullish(),
  base_url: z.string('base_url must be text').max(2_000, 'base_url is too long').nullish(),
  model_headers: z.union([z.string(), headerMap], 'model_headers must be a JSON object').nullish(),
  proxy: z.string('proxy must be text').max(2_000, 'proxy is too long').nullish(),
});
export type ProviderModelsBody = z.infer<typeof providerModelsBody>;

interface ModelListTarget {
  type: number;
  key: string;
  baseUrl: string;
  headers: Record<string, string>;
  proxy: string;
}

function parseHeaders(value: ProviderModelsBody['model_headers']): Record<string, string> | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') return value;
  if (!value.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw AppError.badRequest('model_headers: must be a JSON object');
  }
  return parseInput(headerMap, parsed, 'model_headers');
}

async function resolveTarget(channels: ChannelService, body: ProviderModelsBody): Promise<ModelListTarget> {
  const key =
    (body.key ?? '')
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? '';
  const headers = parseHeaders(body.model_headers);
  if (key) {
    if (body.type === null || body.type === undefined) throw AppError.badRequest('type: the channel type is required');
    const proxy = (body.proxy ?? '').replaceAll('%s', createHash('md5').update(key).digest('hex'));
    return { type: body.type, key, baseUrl: body.base_url ?? '', headers: headers ?? {}, proxy };
  }
  if (!body.id) throw AppError.badRequest('key: give a key, or the id of a stored channel');
  const stored = await channels.findForRouting(body.id);
  if (!stored) throw AppError.notFound(`channel ${body.id} not found`);
  // What the form shows may be newer than what is stored; the stored key is the only secret used.
  return {
    type: body.type ?? stored.type,
    key: stored.key,
    baseUrl: body.base_url || stored.base_url,
    headers: headers ?? stored.model_headers,
    proxy: stored.proxy,
  };
}

function modelIds(answer: unknown): string[] {
  const entries = Array.isArray(answer) ? answer : isRecord(answer) && Array.isArray(answer.data) ? answer.data : [];
  const ids = entries
    .map((entry: unknown) => (isRecord(entry) && typeof entry.id === 'string' ? entry.id.trim() : ''))
    .filter((id) => id !== '');
  return [...new Set(ids)].sort();
}

export async function listProviderModels(
  upstream: UpstreamClient,
  channels: ChannelService,
  body: ProviderModelsBody,
): Promise<string[]> {
  const target = await resolveTarget(channels, body);
  const provider = providerByType(target.type);
  if (!provider?.modelList) throw AppError.badRequest('this channel type cannot list its models yet');
  const baseUrl = channelBaseUrl({ base_url: target.baseUrl }, provider);
  const answer = await getVendorJson(upstream, {
    url: upstreamUrl(baseUrl, `${provider.apiPrefix ?? '/v1'}/models`),
    key: target.key,
    headers: target.headers,
    proxy: target.proxy,
  });
  return modelIds(answer);
}
