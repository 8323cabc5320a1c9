import type { ChannelDetailView, ChannelRoutingStrategy, ChannelView, ProviderView } from '@one-hub/contracts';
import { BALANCING_STRATEGIES, parseJsonObject, parseJsonStringList } from '@one-hub/contracts';
import { isRelayable, type ProviderDefinition } from '../../domain/channel-types/registry.js';
import { toBoolean } from '../../platform/db/index.js';
import type { ChannelListRow, ChannelRecord } from './repo.js';

/** The models a channel skips on streamed requests, from its JSON column; bad data reads as none. */
export function parseDisabledStream(text: string): string[] {
  return parseJsonStringList(text);
}

export function parsePlugin(text: string): Record<string, unknown> | null {
  return text ? (parseJsonObject(text) ?? null) : null;
}

/** A stored strategy; anything else (a hand-edited row) reads as the group's. */
export function channelStrategy(text: string): ChannelRoutingStrategy {
  return BALANCING_STRATEGIES.find((strategy) => strategy === text) ?? '';
}

/** What lists show of a channel: everything but the key. */
export function toChannelView(row: ChannelListRow): ChannelView {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    name: row.name,
    weight: row.weight,
    created_time: Number(row.created_time),
    test_time: Number(row.test_time),
    response_time: row.response_time,
    base_url: row.base_url,
    other: row.other,
    balance: Number(row.balance),
    balance_updated_time: Number(row.balance_updated_time),
    models: row.models,
    group: row.group,
    tag: row.tag,
    used_quota: Number(row.used_quota),
    model_mapping: row.model_mapping,
    model_headers: row.model_headers,
    custom_parameter: row.custom_parameter,
    priority: Number(row.priority),
    proxy: row.proxy,
    test_model: row.test_model,
    only_chat: toBoolean(row.only_chat),
    pre_cost: row.pre_cost,
    compatible_response: toBoolean(row.compatible_response),
    allow_extra_body: toBoolean(row.allow_extra_body),
    disabled_stream: parseDisabledStream(row.disabled_stream),
    plugin: parsePlugin(row.plugin),
    routing_strategy: channelStrategy(row.routing_strategy),
  };
}

/** One channel opened for editing by an administrator: with its key. */
export function toChannelDetailView(record: ChannelRecord): ChannelDetailView {
  return { ...toChannelView(record), key: record.key };
}

export function toProviderView(provider: ProviderDefinition): ProviderView {
  return {
    type: provider.type,
    slug: provider.slug,
    name: provider.name,
    default_base_url: provider.defaultBaseUrl,
    base_url_required: provider.baseUrlRequired ?? false,
    key_hint: provider.keyHint,
    extra_fields: provider.extraFields.map((field) => ({ ...field, required: field.required ?? false })),
    balance: provider.balance !== undefined,
    supported: isRelayable(provider),
    ...(provider.retired === undefined ? {} : { retired: provider.retired }),
  };
}
