import { createHash } from 'node:crypto';
import { type ChannelRoutingStrategy, parseJsonObject, splitChannelList } from '@one-hub/contracts';
import { toBoolean } from '../../platform/db/index.js';
import { channelStrategy, parseDisabledStream, parsePlugin } from './presenter.js';
import type { ChannelRecord } from './repo.js';

/** A channel as the relay uses it: key decrypted, JSON parsed, lists split, booleans normalised. */
export interface RoutingChannel {
  id: number;
  type: number;
  name: string;
  key: string;
  status: number;
  /** At least 1: the reference treats a stored 0 as 1. */
  weight: number;
  priority: number;
  base_url: string;
  other: string;
  /** `%s` already replaced by md5(key), so each key can leave through its own proxy session. */
  proxy: string;
  models: string[];
  group: string[];
  tag: string;
  model_mapping: Record<string, string>;
  model_headers: Record<string, string>;
  custom_parameter: Record<string, unknown>;
  test_model: string;
  only_chat: boolean;
  pre_cost: number;
  compatible_response: boolean;
  allow_extra_body: boolean;
  disabled_stream: string[];
  plugin: Record<string, unknown>;
  /** '' follows the group's strategy. */
  routing_strategy: ChannelRoutingStrategy;
  response_time: number;
  balance: number;
}

function stringMap(text: string): Record<string, string> {
  const parsed = text ? parseJsonObject(text) : undefined;
  const map: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed ?? {})) if (typeof value === 'string') map[name] = value;
  return map;
}

export function toRoutingChannel(record: ChannelRecord): RoutingChannel {
  const keyHash = createHash('md5').update(record.key).digest('hex');
  return {
    id: record.id,
    type: record.type,
    name: record.name,
    key: record.key,
    status: record.status,
    weight: Math.max(1, record.weight),
    priority: Number(record.priority),
    base_url: record.base_url,
    other: record.other,
    proxy: record.proxy.replaceAll('%s', keyHash),
    models: splitChannelList(record.models),
    group: splitChannelList(record.group),
    tag: record.tag,
    model_mapping: stringMap(record.model_mapping),
    model_headers: stringMap(record.model_headers),
    custom_parameter: (record.custom_parameter && parseJsonObject(record.custom_parameter)) || {},
    test_model: record.test_model,
    only_chat: toBoolean(record.only_chat),
    pre_cost: record.pre_cost,
    compatible_response: toBoolean(record.compatible_response),
    allow_extra_body: toBoolean(record.allow_extra_body),
    disabled_stream: parseDisabledStream(record.disabled_stream),
    plugin: parsePlugin(record.plugin) ?? {},
    routing_strategy: channelStrategy(record.routing_strategy),
    response_time: record.response_time,
    balance: Number(record.balance),
  };
}
