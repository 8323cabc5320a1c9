/**
 * The part of a channel translation one-api and new-api share: columns that mean the same, the
 * type translation, and the rule for upstreams One Hub cannot call (kept, disabled, reported).
 */
import type { LegacyChannel, Skipped, SourceRow } from '../legacy.js';
import type { ChannelTypeTarget } from './channel-types.js';
import { toInteger, toJsonText, toNumber, toText } from './values.js';

/** A translated channel and what could not be carried over for it. */
export interface ConvertedChannel {
  channel: LegacyChannel;
  notes: Skipped[];
}

/** What each product works out itself from its own columns. */
export interface ChannelParts {
  key: string;
  other: string;
  model_headers?: string;
  custom_parameter?: string;
  proxy?: string;
  test_model?: string;
  tag?: string;
}

export function familyChannel(row: SourceRow, target: ChannelTypeTarget, parts: ChannelParts): LegacyChannel {
  const weight = toInteger(row.weight);
  const mapping = toJsonText(row.model_mapping, '');
  return {
    id: toInteger(row.id),
    type: target.type,
    status: target.missing ? 2 : toInteger(row.status, 1),
    name: toText(row.name),
    // Both sources default the weight to 0, which One Hub treats as 1 anyway.
    weight: weight > 0 ? weight : 1,
    created_time: toInteger(row.created_time),
    test_time: toInteger(row.test_time),
    response_time: toInteger(row.response_time),
    base_url: toText(row.base_url).trim() || target.baseUrl || '',
    balance: toNumber(row.balance),
    balance_updated_time: toInteger(row.balance_updated_time),
    models: toText(row.models),
    group: toText(row.group).trim() || 'default',
    used_quota: toInteger(row.used_quota),
    model_mapping: mapping === '{}' ? '' : mapping,
    priority: toInteger(row.priority),
    only_chat: false,
    pre_cost: 1,
    compatible_response: false,
    allow_extra_body: false,
    // Theirs has no strategy per channel: the group's applies.
    routing_strategy: '',
    disabled_stream: '[]',
    plugin: '',
    deleted_at: null,
    model_headers: '',
    custom_parameter: '',
    proxy: '',
    test_model: '',
    tag: '',
    ...parts,
  };
}

/** A note about one channel for the final report. */
export const channelNote = (row: SourceRow, reason: string): Skipped => ({
  table: 'channels',
  row: toInteger(row.id),
  reason,
});

/** The key with the first `|`-separated part dropped: Tencent's AppId, which Hunyuan's TC3 API does not use. */
export function withoutAppId(key: string): string {
  const parts = key.split('|');
  return parts.length === 3 ? parts.slice(1).join('|') : key;
}
