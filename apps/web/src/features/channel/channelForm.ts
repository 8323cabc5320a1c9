import {
  type ChannelRoutingStrategy,
  type ChannelView,
  type CreateChannelBody,
  createChannelBody,
  modelEntryProblem,
  type ProviderView,
  parseJsonObject,
  splitChannelList,
  type UpdateChannelBody,
  type UpdateChannelTagBody,
  updateChannelBody,
  updateChannelTagBody,
} from '@one-hub/contracts';
import { placeIssues } from '../../components/form/placeIssues.js';

/** The dialog's fields as the inputs hold them (numbers and JSON as typed text). */
export interface ChannelFormValues {
  /** 0 until a type is chosen. */
  type: number;
  name: string;
  /** One key a line; on creation each line makes a channel. */
  key: string;
  base_url: string;
  /** The per-type text setting (API version, region…), as /api/providers names it. */
  other: string;
  /** The per-type JSON settings (plugin parameters, knowledge base, voice mapping). */
  plugin: string;
  models: string[];
  group: string[];
  tag: string;
  priority: string;
  weight: string;
  test_model: string;
  proxy: string;
  model_mapping: string;
  model_headers: string;
  custom_parameter: string;
  only_chat: boolean;
  pre_cost: number;
  compatible_response: boolean;
  allow_extra_body: boolean;
  disabled_stream: string[];
  /** '' follows the user group's strategy. */
  routing_strategy: ChannelRoutingStrategy;
}

export type ChannelFormField = Exclude<
  keyof ChannelFormValues,
  'only_chat' | 'compatible_response' | 'allow_extra_body' | 'pre_cost' | 'routing_strategy'
>;
export type ChannelFormErrors = Partial<Record<ChannelFormField, string>>;

/** `create` also serves copies; `tag` edits every channel of a tag at once (keys one a line). */
export type ChannelFormMode = 'create' | 'edit' | 'tag';

type Translate = (key: string, values?: Record<string, unknown>) => string;

const FORM_FIELDS: readonly ChannelFormField[] = [
  'type',
  'name',
  'key',
  'base_url',
  'other',
  'plugin',
  'models',
  'group',
  'tag',
  'priority',
  'weight',
  'test_model',
  'proxy',
  'model_mapping',
  'model_headers',
  'custom_parameter',
  'disabled_stream',
];

export const DEFAULT_CHANNEL_GROUP = 'default';

export function emptyChannelForm(type = 0): ChannelFormValues {
  return {
    type,
    name: '',
    key: '',
    base_url: '',
    other: '',
    plugin: '',
    models: [],
    group: [DEFAULT_CHANNEL_GROUP],
    tag: '',
    priority: '0',
    weight: '1',
    test_model: '',
    proxy: '',
    model_mapping: '',
    model_headers: '',
    custom_parameter: '',
    only_chat: false,
    pre_cost: 1,
    compatible_response: false,
    allow_extra_body: false,
    disabled_stream: [],
    routing_strategy: '',
  };
}

/** JSON objects are shown indented, so a mapping reads one entry a line. */
function prettyJson(text: string): string {
  const parsed = text.trim() ? parseJsonObject(text) : undefined;
  return parsed ? JSON.stringify(parsed, null, 2) : text;
}

/** The form for an existing channel; `key` is what the key field starts with ('' keeps the stored key). */
export function channelToForm(channel: ChannelView, key = ''): ChannelFormValues {
  return {
    type: channel.type,
    name: channel.name,
    key,
    base_url: channel.base_url,
    other: channel.other,
    plugin: channel.plugin ? JSON.stringify(channel.plugin, null, 2) : '',
    models: splitChannelList(channel.models),
    group: splitChannelList(channel.group),
    tag: channel.tag,
    priority: String(channel.priority),
    weight: String(channel.weight || 1),
    test_model: channel.test_model,
    proxy: channel.proxy,
    model_mapping: prettyJson(channel.model_mapping),
    model_headers: prettyJson(channel.model_headers),
    custom_parameter: prettyJson(channel.custom_parameter),
    only_chat: channel.only_chat,
    pre_cost: channel.pre_cost || 1,
    compatible_response: channel.compatible_response,
    allow_extra_body: channel.allow_extra_body,
    disabled_stream: channel.disabled_stream,
    routing_strategy: channel.routing_strategy ?? '',
  };
}

/** A copy starts as the channel with "_copy" after its name and no key. */
/**
 * The types the picker offers: those the gateway can relay to (`supported`), plus `keep`, the type
 * a stored channel already has, so editing it still shows its type. The list of all types stays
 * for naming stored channels (table, filter).
 */
export function pickerProviders(providers: ProviderView[], keep?: number): ProviderView[] {
  return providers.filter((provider) => provider.supported || provider.type === keep);
}

export function copyToForm(channel: ChannelView): ChannelFormValues {
  return { ...channelToForm(channel), name: `${channel.name}_copy`, key: '' };
}

/** How many channels a creation makes: one per distinct non-empty key line (a JSON key is one). */
export function keyLineCount(key: string): number {
  const trimmed = key.trim();
  if (!trimmed) return 0;
  if (trimmed.startsWith('{') && parseJsonObject(trimmed)) return 1;
  return new Set(
    trimmed
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  ).size;
}

/** Models the price table lists for a channel type, sorted. */
export function pricedModelsFor(prices: ReadonlyArray<{ model: string; channel_type: number }>, type: number) {
  return [...new Set(prices.filter((price) => price.channel_type === type).map((price) => price.model))].sort();
}

/** Adds models to a list, keeping its order and dropping duplicates and blanks. */
export function mergeModels(current: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...current, ...added.map((model) => model.trim()).filter(Boolean)])];
}

/** Models a channel can be tested with: its own list without wildcards, the test model first. */
export function testableModels(channel: Pick<ChannelView, 'models' | 'test_model'>): string[] {
  const models = splitChannelList(channel.models).filter((model) => !model.includes('*'));
  return channel.test_model ? mergeModels([channel.test_model], models) : models;
}

/** Integer text, or NaN ("" and "1.5" are both not whole numbers). */
function integerOf(text: string): number {
  const trimmed = text.trim();
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

function isUrl(text: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(text.replaceAll('%s', 'x')).protocol);
  } catch {
    return false;
  }
}

/** '' when the text is empty or a JSON object (whose values are text when `stringValues`), else the error key. */
function jsonProblem(text: string, stringValues: boolean): string {
  if (!text.trim()) return '';
  const parsed = parseJsonObject(text);
  if (!parsed) return 'channel:form.errors.jsonObject';
  if (stringValues && Object.values(parsed).some((value) => typeof value !== 'string')) {
    return 'channel:form.errors.jsonStrings';
  }
  return '';
}

const JSON_EXAMPLES = {
  model_mapping: '{"gpt-4": "gpt-4-turbo"}',
  model_headers: '{"X-Header": "value"}',
  custom_parameter: '{"temperature": 0.7}',
  plugin: '{"key": {"param": "value"}}',
} as const;

/** Placeholders that show the shape of a value: code, the same in every language. */
export const CODE_EXAMPLES = {
  baseUrl: 'https://',
  proxy: 'socks5://user:pass@host:port',
  model_mapping: '{\n  "gpt-3.5-turbo": "gpt-3.5-turbo-0125"\n}',
  model_headers: '{\n  "X-Header": "value"\n}',
  custom_parameter: '{\n  "temperature": 0.7\n}',
} as const;

/** The spec §5 rules, with translated messages on the fields. */
function checkFields(
  values: ChannelFormValues,
  mode: ChannelFormMode,
  provider: ProviderView | undefined,
  t: Translate,
): ChannelFormErrors {
  const errors: ChannelFormErrors = {};
  if (mode !== 'tag' && !values.name.trim()) errors.name = t('channel:form.errors.nameRequired');
  if (mode !== 'tag' && !provider) errors.type = t('channel:form.errors.typeRequired');
  if (mode !== 'edit' && !values.key.trim()) errors.key = t('channel:form.errors.keyRequired');

  const baseUrls = values.base_url
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (baseUrls.length === 0 && provider?.base_url_required) errors.base_url = t('channel:form.errors.baseUrlRequired');
  else if (mode !== 'create' && baseUrls.length > 1) errors.base_url = t('channel:form.errors.baseUrlOneLine');
  else {
    const bad = baseUrls.find((url) => !isUrl(url, ['http:', 'https:']));
    if (bad !== undefined) errors.base_url = t('channel:form.errors.baseUrl', { value: bad });
  }

  const otherField = provider?.extra_fields.find((field) => field.name === 'other');
  if (otherField?.required && !values.other.trim()) errors.other = t('channel:form.errors.otherRequired');

  if (values.models.length === 0) errors.models = t('channel:form.errors.modelsRequired');
  else {
    const bad = values.models.find((model) => modelEntryProblem(model.trim()) !== undefined);
    if (bad !== undefined) errors.models = t('channel:form.errors.wildcard', { model: bad });
  }
  if (values.group.length === 0) errors.group = t('channel:form.errors.groupRequired');

  if (mode !== 'tag') {
    const priority = integerOf(values.priority);
    if (Number.isNaN(priority) || priority < 0) errors.priority = t('channel:form.errors.priority');
    const weight = integerOf(values.weight);
    if (Number.isNaN(weight) || weight < 1) errors.weight = t('channel:form.errors.weight');
  }

  for (const field of ['model_mapping', 'model_headers', 'custom_parameter', 'plugin'] as const) {
    const problem = jsonProblem(values[field], field === 'model_mapping' || field === 'model_headers');
    if (problem) errors[field] = t(problem, { example: JSON_EXAMPLES[field] });
  }
  if (values.proxy.trim() && !isUrl(values.proxy.trim(), ['http:', 'https:', 'socks5:', 'socks5h:'])) {
    errors.proxy = t('channel:form.errors.proxy');
  }
  return errors;
}

/** The request body the values stand for, before the contracts schema checks it. */
export function formToInput(values: ChannelFormValues) {
  const pluginText = values.plugin.trim();
  return {
    name: values.name.trim(),
    type: values.type,
    key: values.key.trim(),
    base_url: values.base_url.trim(),
    other: values.other.trim(),
    models: values.models.map((model) => model.trim()).join(','),
    group: values.group.join(','),
    tag: values.tag.trim(),
    priority: integerOf(values.priority),
    weight: integerOf(values.weight),
    test_model: values.test_model.trim(),
    proxy: values.proxy.trim(),
    model_mapping: values.model_mapping.trim(),
    model_headers: values.model_headers.trim(),
    custom_parameter: values.custom_parameter.trim(),
    only_chat: values.only_chat,
    pre_cost: values.pre_cost,
    compatible_response: values.compatible_response,
    allow_extra_body: values.allow_extra_body,
    disabled_stream: values.disabled_stream,
    routing_strategy: values.routing_strategy,
    plugin: pluginText ? (parseJsonObject(pluginText) ?? pluginText) : null,
  };
}

/** Settings an edit of a tag writes to every channel of it (the server ignores the rest). */
function tagInput(input: ReturnType<typeof formToInput>) {
  const { type: _type, priority: _priority, weight: _weight, allow_extra_body: _extra, ...shared } = input;
  return shared;
}

export type ChannelFormBody =
  | { mode: 'create'; body: CreateChannelBody }
  | { mode: 'edit'; body: UpdateChannelBody }
  | { mode: 'tag'; body: UpdateChannelTagBody };

export type ChannelFormResult =
  | ({ ok: true } & ChannelFormBody)
  | { ok: false; errors: ChannelFormErrors; unplaced: string[] };

function isFormField(name: string): name is ChannelFormField {
  return (FORM_FIELDS as readonly string[]).includes(name);
}

/**
 * Validates the form: first the spec's rules with translated messages, then the server's own
 * schema (lengths and the like), whose messages name the field they belong to.
 */
export function validateChannelForm(
  values: ChannelFormValues,
  mode: ChannelFormMode,
  context: { id: number | null; provider: ProviderView | undefined },
  t: Translate,
): ChannelFormResult {
  const errors = checkFields(values, mode, context.provider, t);
  const input = formToInput(values);
  const { key, ...withoutKey } = input;
  const parsed =
    mode === 'create'
      ? createChannelBody.safeParse(input)
      : mode === 'edit'
        ? updateChannelBody.safeParse({ ...withoutKey, ...(key ? { key } : {}), id: context.id })
        : updateChannelTagBody.safeParse(tagInput(input));
  const { unplaced } = placeIssues(
    parsed.error?.issues ?? [],
    (path) => formFieldOf(String(path[0] ?? '')),
    (_field, issue) => issue.message,
    errors,
  );
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors, unplaced };
  return { ok: true, mode, body: parsed.data } as ChannelFormResult;
}

/** The form's field for the field a server refusal names: the form's fields are named like the API's. */
export function formFieldOf(apiField: string): ChannelFormField | undefined {
  return isFormField(apiField) ? apiField : undefined;
}
