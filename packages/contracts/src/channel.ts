import { z } from 'zod';
import { BALANCING_STRATEGIES, type BalancingStrategy } from './channelHealth.js';
import { parseJsonObject } from './json.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { pageQuery } from './paging.js';

/** `channels.status`: 1 enabled, 2 disabled by an administrator, 3 disabled automatically after failures. */
export const ChannelStatus = {
  enabled: 1,
  manuallyDisabled: 2,
  autoDisabled: 3,
} as const;
export type ChannelStatus = (typeof ChannelStatus)[keyof typeof ChannelStatus];

/** A channel's strategy inside its tier: '' follows the user group's. */
export type ChannelRoutingStrategy = '' | BalancingStrategy;

/** `pre_cost`: how prompt tokens are pre-counted: 1 everything, 2 skip images, 3 nothing. */
export const channelPreCosts = [1, 2, 3] as const;

/** Splits a comma list (models, groups) into trimmed, non-empty, distinct entries. */
export function splitChannelList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  ];
}

/** Why a model entry is invalid, or undefined. `*` is a prefix wildcard: last, with something before it. */
export function modelEntryProblem(entry: string): string | undefined {
  const star = entry.indexOf('*');
  if (star === -1) return undefined;
  if (star !== entry.length - 1) return `"${entry}": the * wildcard may only be the last character`;
  if (star === 0) return `"${entry}": the * wildcard needs at least one character before it`;
  return undefined;
}

/** Removes one trailing slash, as the console does, so paths can be appended. */
export function trimTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

function isUrlWithProtocol(text: string, protocols: readonly string[]): boolean {
  try {
    // `%s` in a proxy is replaced by a per-key hash when routing, so it must be accepted here.
    return protocols.includes(new URL(text.replaceAll('%s', 'x')).protocol);
  } catch {
    return false;
  }
}

/** Numbers from forms may arrive as strings; anything else is left for zod to reject. */
function integerField(field: string, min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
    z
      .number(`${field} must be a number`)
      .int(`${field} must be a whole number`)
      .min(min, `${field} must be at least ${min}`)
      .max(max, `${field} must be at most ${max}`),
  );
}

function listField(field: string, options: { allowEmpty: boolean; entryMax: number; totalMax: number }) {
  return z
    .string(`${field} is required`)
    .max(options.totalMax, `${field} must be at most ${options.totalMax} characters`)
    .superRefine((value, context) => {
      const entries = splitChannelList(value);
      if (entries.length === 0 && !options.allowEmpty)
        context.addIssue({ code: 'custom', message: `${field} is required` });
      for (const entry of entries) {
        const problem = field === 'models' ? modelEntryProblem(entry) : undefined;
        if (problem) context.addIssue({ code: 'custom', message: `${field}: ${problem}` });
        if (entry.length > options.entryMax) {
          context.addIssue({ code: 'custom', message: `${field}: "${entry}" is longer than ${options.entryMax}` });
        }
      }
    })
    .transform((value) => splitChannelList(value).join(','));
}

/** A JSON object kept as text: '' (or null) for none; an object is accepted and serialised. */
function jsonObjectText(field: string, example: string, stringValues: boolean) {
  return z
    .union([z.string(), z.record(z.string(), z.unknown()), z.null()], `${field} must be a JSON object, e.g. ${example}`)
    .transform((value) => (value === null ? '' : typeof value === 'string' ? value.trim() : JSON.stringify(value)))
    .superRefine((text, context) => {
      if (text === '') return;
      if (text.length > 16_000) return context.addIssue({ code: 'custom', message: `${field} is too long` });
      const parsed = parseJsonObject(text);
      if (!parsed)
        return context.addIssue({ code: 'custom', message: `${field} must be a JSON object, e.g. ${example}` });
      if (!stringValues) return;
      for (const [name, value] of Object.entries(parsed)) {
        if (typeof value !== 'string') {
          context.addIssue({ code: 'custom', message: `${field}: the value of "${name}" must be a string` });
        }
      }
    });
}

const pluginField = z
  .union([z.string(), z.record(z.string(), z.unknown()), z.null()], 'plugin must be a JSON object')
  .transform((value, context) => {
    if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
    if (typeof value === 'string' && nestsDeeperThan(value)) {
      context.addIssue({ code: 'custom', message: `plugin is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` });
      return z.NEVER;
    }
    const parsed = typeof value === 'string' ? parseJsonObject(value) : value;
    if (!parsed) {
      context.addIssue({ code: 'custom', message: 'plugin must be a JSON object, e.g. {"voice": {"alloy": "…"}}' });
      return z.NEVER;
    }
    return parsed;
  });

function urlField(field: string, max: number, protocols: readonly string[], hint: string) {
  return z
    .string(`${field} must be text`)
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .refine((value) => value === '' || isUrlWithProtocol(value, protocols), `${field} must be ${hint}`);
}

const baseUrlField = urlField('base_url', 500, ['http:', 'https:'], 'an http(s) URL').transform(trimTrailingSlash);
/** On creation one base URL per key line may be given. */
const baseUrlLinesField = z
  .string('base_url must be text')
  .max(100_000, 'base_url is too long')
  .transform((text) => text.split('\n').map((line) => line.trim()))
  .pipe(z.array(baseUrlField))
  .transform((lines) => lines.filter(Boolean).join('\n'));

export const channelNameField = z
  .string('name is required')
  .trim()
  .min(1, 'name is required')
  .max(100, 'name must be at most 100 characters');
export const channelTypeField = integerField('type', 1, 10_000);
export const channelTagField = z.string('tag must be text').trim().max(64, 'tag must be at most 64 characters');

/** Settings every channel has, with their defaults for a new channel. */
const settingFields = {
  other: z.string('other must be text').trim().max(2000, 'other must be at most 2000 characters'),
  model_mapping: jsonObjectText('model_mapping', '{"gpt-4": "gpt-4-turbo"}', true),
  model_headers: jsonObjectText('model_headers', '{"X-Header": "value"}', true),
  custom_parameter: jsonObjectText('custom_parameter', '{"temperature": 0.7}', false),
  proxy: urlField('proxy', 255, ['http:', 'https:', 'socks5:', 'socks5h:'], 'an http(s) or socks5 URL'),
  test_model: z.string('test_model must be text').trim().max(100, 'test_model must be at most 100 characters'),
  tag: channelTagField,
  priority: integerField('priority', 0, 1_000_000_000),
  weight: integerField('weight', 1, 1_000_000),
  only_chat: z.boolean('only_chat must be true or false'),
  pre_cost: integerField('pre_cost', 1, 3),
  compatible_response: z.boolean('compatible_response must be true or false'),
  allow_extra_body: z.boolean('allow_extra_body must be true or false'),
  disabled_stream: z
    .array(z.string('disabled_stream must list model names').trim().max(200), 'disabled_stream must be a list')
    .max(1000)
    .nullable()
    .transform((models) => (models ?? []).filter(Boolean)),
  plugin: pluginField,
  status: integerField('status', 1, 3),
  routing_strategy: z.enum(['', ...BALANCING_STRATEGIES], {
    error: `routing_strategy must be '' (the group's) or one of ${BALANCING_STRATEGIES.join(', ')}`,
  }),
};

const keyText = z.string('key is required').max(2_000_000, 'key is too long');

export const createChannelBody = z.object({
  name: channelNameField,
  type: channelTypeField,
  /** One channel is created per non-empty line. */
  key: keyText.refine((key) => key.trim() !== '', 'key is required'),
  base_url: baseUrlLinesField.default(''),
  models: listField('models', { allowEmpty: false, entryMax: 200, totalMax: 60_000 }),
  group: listField('group', { allowEmpty: false, entryMax: 50, totalMax: 255 }),
  other: settingFields.other.default(''),
  model_mapping: settingFields.model_mapping.default(''),
  model_headers: settingFields.model_headers.default(''),
  custom_parameter: settingFields.custom_parameter.default(''),
  proxy: settingFields.proxy.default(''),
  test_model: settingFields.test_model.default(''),
  tag: settingFields.tag.default(''),
  priority: settingFields.priority.default(0),
  weight: settingFields.weight.default(1),
  only_chat: settingFields.only_chat.default(false),
  pre_cost: settingFields.pre_cost.default(1),
  compatible_response: settingFields.compatible_response.default(false),
  allow_extra_body: settingFields.allow_extra_body.default(false),
  disabled_stream: settingFields.disabled_stream.default([]),
  plugin: settingFields.plugin.default(null),
  status: settingFields.status.default(ChannelStatus.enabled),
  routing_strategy: settingFields.routing_strategy.default(''),
});
export type CreateChannelBody = z.infer<typeof createChannelBody>;

/** Fields of an edit: absent means unchanged; '' on name, key, models and group means unchanged too. */
const editFields = {
  name: z.string('name must be text').trim().max(100, 'name must be at most 100 characters').optional(),
  type: channelTypeField.optional(),
  key: keyText.trim().max(20_000, 'key must be at most 20000 characters').optional(),
  base_url: baseUrlField.optional(),
  models: listField('models', { allowEmpty: true, entryMax: 200, totalMax: 60_000 }).optional(),
  group: listField('group', { allowEmpty: true, entryMax: 50, totalMax: 255 }).optional(),
  other: settingFields.other.optional(),
  model_mapping: settingFields.model_mapping.optional(),
  model_headers: settingFields.model_headers.optional(),
  custom_parameter: settingFields.custom_parameter.optional(),
  proxy: settingFields.proxy.optional(),
  test_model: settingFields.test_model.optional(),
  tag: settingFields.tag.optional(),
  priority: settingFields.priority.optional(),
  weight: settingFields.weight.optional(),
  only_chat: settingFields.only_chat.optional(),
  pre_cost: settingFields.pre_cost.optional(),
  compatible_response: settingFields.compatible_response.optional(),
  allow_extra_body: settingFields.allow_extra_body.optional(),
  disabled_stream: settingFields.disabled_stream.optional(),
  plugin: settingFields.plugin.optional(),
  status: settingFields.status.optional(),
  routing_strategy: settingFields.routing_strategy.optional(),
};
const channelEdit = z.object(editFields);
export type ChannelEdit = z.infer<typeof channelEdit>;

/**
 * PUT /api/channel/: without models it is a partial update (status, priority and weight toggles);
 * with models it is a whole channel, so name, type and group are required as on creation.
 */
export const updateChannelBody = channelEdit
  .extend({ id: integerField('id', 1, Number.MAX_SAFE_INTEGER) })
  .superRefine((body, context) => {
    if (!body.models) return;
    if (!body.name) context.addIssue({ code: 'custom', path: ['name'], message: 'name is required' });
    if (body.type === undefined) context.addIssue({ code: 'custom', path: ['type'], message: 'type is required' });
    if (!body.group) context.addIssue({ code: 'custom', path: ['group'], message: 'group is required' });
  });
export type UpdateChannelBody = z.infer<typeof updateChannelBody>;

/** PUT /api/channel_tag/:tag: the keys of the whole tag (one a line) plus settings shared by all. */
export const updateChannelTagBody = channelEdit.extend({
  key: keyText.refine((key) => key.trim() !== '', 'key is required'),
});
export type UpdateChannelTagBody = z.infer<typeof updateChannelTagBody>;

const optionalText = (max: number) => z.string().trim().max(max).optional();
const optionalIntegerQuery = (field: string) =>
  z.preprocess((value) => (value === '' ? undefined : value), integerField(field, 0, 1_000_000).optional());

/** Values of `filter_tag` (see channelListQuery). */
export const ChannelTagFolding = {
  folded: 0,
  untaggedOnly: 1,
  tagsOnly: 2,
  unfolded: 3,
} as const;
export type ChannelTagFolding = (typeof ChannelTagFolding)[keyof typeof ChannelTagFolding];

export const channelListQuery = pageQuery.extend({
  type: optionalIntegerQuery('type'),
  status: optionalIntegerQuery('status'),
  name: optionalText(100),
  group: optionalText(50),
  models: optionalText(200),
  other: optionalText(200),
  key: z.string().trim().max(20_000).optional(),
  test_model: optionalText(100),
  tag: optionalText(64),
  /**
   * 0: untagged channels plus one row per tag; 1: untagged only; 2: one row per tag only;
   * 3 (ours, not the reference's): every channel, tagged or not, nothing folded.
   */
  filter_tag: z.preprocess((value) => (value === '' ? undefined : value), integerField('filter_tag', 0, 3).default(0)),
});
export type ChannelListQuery = z.infer<typeof channelListQuery>;

const idList = z
  .array(integerField('ids', 1, Number.MAX_SAFE_INTEGER), 'ids must be a list of channel ids')
  .min(1, 'ids must name at least one channel')
  .max(1000, 'ids may name at most 1000 channels');

export const channelIdsBody = z.object({ ids: idList });
export const channelBatchValueBody = z.object({
  ids: idList,
  value: z.string('value is required').trim().min(1, 'value is required').max(2000, 'value is too long'),
});
export type ChannelBatchValueBody = z.infer<typeof channelBatchValueBody>;

export const channelTagParam = z.object({
  tag: z.string('tag is required').trim().min(1, 'tag is required').max(64, 'tag must be at most 64 characters'),
});
export const channelTagStatusParam = channelTagParam.extend({
  status: z.enum(['enable', 'disable'], 'status must be enable or disable'),
});
export const channelTagPriorityBody = z.object({
  type: z.literal('priority', 'type must be "priority"'),
  value: integerField('value', 0, 1_000_000_000),
});

/** A channel as lists show it: never the key. */
export interface ChannelView {
  id: number;
  type: number;
  status: number;
  name: string;
  weight: number;
  created_time: number;
  test_time: number;
  response_time: number;
  base_url: string;
  other: string;
  balance: number;
  balance_updated_time: number;
  models: string;
  group: string;
  tag: string;
  used_quota: number;
  model_mapping: string;
  model_headers: string;
  custom_parameter: string;
  priority: number;
  proxy: string;
  test_model: string;
  only_chat: boolean;
  pre_cost: number;
  compatible_response: boolean;
  allow_extra_body: boolean;
  disabled_stream: string[];
  plugin: Record<string, unknown> | null;
  /** '' follows the user group's strategy; a tier whose channels all name one strategy uses it. */
  routing_strategy: ChannelRoutingStrategy;
}

/** One channel opened for editing, with its provider key. */
export interface ChannelDetailView extends ChannelView {
  key: string;
}

/** GET /api/channel_tag/:tag: the first channel, every key of the tag, and md5(key) → channel id. */
export interface ChannelTagView extends ChannelDetailView {
  KeyMap: Record<string, number>;
}

export interface ProviderExtraFieldView {
  name: 'other' | 'plugin';
  label: string;
  kind: 'text' | 'json' | 'select';
  required: boolean;
  placeholder?: string;
  options?: string[];
}

/** GET /api/providers: the console learns channel types and their settings only from here. */
export interface ProviderView {
  type: number;
  slug: string;
  name: string;
  default_base_url: string;
  base_url_required: boolean;
  key_hint: string;
  extra_fields: ProviderExtraFieldView[];
  /** True when GET /api/channel/update_balance/:id can read this type's balance from the vendor. */
  balance: boolean;
  /**
   * True when the gateway can relay to this type (its registry entry has an adapter): the console
   * offers only these for new channels. Others are listed so stored channels of them still show.
   */
  supported: boolean;
  /** Set when the vendor shut this API down: why, and which type replaces it. */
  retired?: string;
}
