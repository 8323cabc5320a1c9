import { type ChannelEdit, type CreateChannelBody, parseJsonObject } from '@one-hub/contracts';
import { AppError } from '../../platform/errors.js';
import type { ChannelPatch, NewChannel } from './repo.js';

/** How many channels one creation or tag edit may add: each is a row and an encryption. */
export const MAX_KEYS_AT_ONCE = 2000;
const MAX_KEY_LENGTH = 20_000;

/**
 * The keys of a multi-key field, one a line. A whole JSON document (a Vertex service account)
 * spans several lines but is one key.
 */
export function splitKeys(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && parseJsonObject(trimmed)) return [trimmed];
  const keys = [
    ...new Set(
      trimmed
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
  if (keys.length > MAX_KEYS_AT_ONCE) throw AppError.badRequest(`at most ${MAX_KEYS_AT_ONCE} keys at once`, 'key');
  if (keys.some((key) => key.length > MAX_KEY_LENGTH)) {
    throw AppError.badRequest(`each key must be at most ${MAX_KEY_LENGTH} characters`, 'key');
  }
  return keys;
}

function pluginText(plugin: Record<string, unknown> | null): string {
  return plugin ? JSON.stringify(plugin) : '';
}

/** Column values for the channels one creation body makes (one per key line). */
export function channelsToCreate(body: CreateChannelBody, now: number): NewChannel[] {
  const { key, base_url, plugin, disabled_stream, name, ...settings } = body;
  const baseUrls = base_url.split('\n').filter(Boolean);
  return splitKeys(key).map((channelKey, index) => ({
    ...settings,
    key: channelKey,
    name: index === 0 ? name : `${name}_${index + 1}`,
    // The i-th base URL goes with the i-th key; with fewer lines the first one serves the rest.
    base_url: baseUrls[index] ?? baseUrls[0] ?? '',
    plugin: pluginText(plugin),
    disabled_stream: JSON.stringify(disabled_stream),
    created_time: now,
    test_time: 0,
    response_time: 0,
    balance: 0,
    balance_updated_time: 0,
    used_quota: 0,
  }));
}

/** Column values of an edit: absent fields stay as they are, and so do empty name, key, models and group. */
export function editToPatch(edit: ChannelEdit): ChannelPatch {
  const { plugin, disabled_stream, name, key, models, group, ...rest } = edit;
  const patch: ChannelPatch = {};
  for (const [field, value] of Object.entries(rest)) {
    if (value !== undefined) Object.assign(patch, { [field]: value });
  }
  if (name) patch.name = name;
  if (key) patch.key = key;
  if (models) patch.models = models;
  if (group) patch.group = group;
  if (plugin !== undefined) patch.plugin = pluginText(plugin);
  if (disabled_stream !== undefined) patch.disabled_stream = JSON.stringify(disabled_stream);
  return patch;
}

/** Settings an edit of a tag writes to every channel of the tag. */
const TAG_SHARED_FIELDS = [
  'base_url',
  'other',
  'models',
  'group',
  'tag',
  'model_mapping',
  'model_headers',
  'custom_parameter',
  'proxy',
  'test_model',
  'only_chat',
  'plugin',
  'pre_cost',
  'disabled_stream',
  'compatible_response',
  'routing_strategy',
] as const satisfies ReadonlyArray<keyof ChannelPatch>;

export function sharedTagPatch(edit: ChannelEdit): ChannelPatch {
  const patch = editToPatch(edit);
  const shared: ChannelPatch = {};
  for (const field of TAG_SHARED_FIELDS) {
    if (patch[field] !== undefined) Object.assign(shared, { [field]: patch[field] });
  }
  // An empty tag would move every channel out of the tag being edited; keep it instead.
  if (shared.tag === '') delete shared.tag;
  return shared;
}
