import type { ChannelView, ProviderView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import {
  channelToForm,
  copyToForm,
  emptyChannelForm,
  formFieldOf,
  formToInput,
  keyLineCount,
  mergeModels,
  pickerProviders,
  pricedModelsFor,
  testableModels,
  validateChannelForm,
} from './channelForm.js';

/** Echoes the key and its values, so a test can tell which message was chosen. */
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);

const openai: ProviderView = {
  type: 1,
  slug: 'openai',
  name: 'OpenAI',
  default_base_url: 'https://api.openai.com',
  base_url_required: false,
  key_hint: 'API key',
  extra_fields: [],
  balance: true,
  supported: true,
};
const azure: ProviderView = {
  ...openai,
  type: 3,
  slug: 'azure',
  name: 'Azure OpenAI',
  default_base_url: '',
  base_url_required: true,
  extra_fields: [{ name: 'other', label: 'API version', kind: 'text', required: true }],
  balance: false,
};

const baidu: ProviderView = { ...openai, type: 15, slug: 'baidu', name: 'Baidu', balance: false, supported: false };

describe('pickerProviders', () => {
  it('offers only the types the server marks supported, in its order', () => {
    expect(pickerProviders([openai, baidu, azure])).toEqual([openai, azure]);
  });

  it("keeps a stored channel's own type so editing it still shows the type", () => {
    expect(pickerProviders([openai, baidu, azure], baidu.type)).toEqual([openai, baidu, azure]);
    expect(pickerProviders([openai, baidu, azure], openai.type)).toEqual([openai, azure]);
  });
});

function valid() {
  return { ...emptyChannelForm(1), name: 'main', key: 'sk-1', models: ['gpt-4o', 'gpt-4*'], group: ['default'] };
}

const channel: ChannelView = {
  id: 7,
  type: 1,
  status: 1,
  name: 'main',
  weight: 3,
  created_time: 0,
  test_time: 0,
  response_time: 0,
  base_url: 'https://example.test',
  other: '',
  balance: 0,
  balance_updated_time: 0,
  models: 'gpt-4o,gpt-4*,o1',
  group: 'default,vip',
  tag: 'team',
  used_quota: 0,
  model_mapping: '{"a":"b"}',
  model_headers: '',
  custom_parameter: '',
  priority: 5,
  proxy: '',
  test_model: 'o1',
  only_chat: false,
  pre_cost: 2,
  compatible_response: false,
  allow_extra_body: true,
  disabled_stream: ['o1'],
  plugin: { voice: { alloy: 'x' } },
  routing_strategy: 'latency',
};

describe('validateChannelForm', () => {
  it('accepts a complete form and builds the creation body', () => {
    const result = validateChannelForm(valid(), 'create', { id: null, provider: openai }, t);
    expect(result.ok).toBe(true);
    if (!result.ok || result.mode !== 'create') return;
    expect(result.body).toMatchObject({ name: 'main', type: 1, key: 'sk-1', models: 'gpt-4o,gpt-4*', priority: 0 });
    expect(result.body.weight).toBe(1);
  });

  it('requires name, type, key, models and group, each on its field', () => {
    const empty = { ...emptyChannelForm(0), group: [] };
    const result = validateChannelForm(empty, 'create', { id: null, provider: undefined }, t);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      name: 'channel:form.errors.nameRequired',
      type: 'channel:form.errors.typeRequired',
      key: 'channel:form.errors.keyRequired',
      models: 'channel:form.errors.modelsRequired',
      group: 'channel:form.errors.groupRequired',
    });
  });

  it('refuses a wildcard that is not last or has nothing before it', () => {
    for (const model of ['*gpt-4', 'gpt*-4', '*']) {
      const result = validateChannelForm(
        { ...valid(), models: ['ok', model] },
        'create',
        { id: null, provider: openai },
        t,
      );
      expect(result.ok, model).toBe(false);
      if (!result.ok) expect(result.errors.models).toContain(JSON.stringify(model));
    }
  });

  it('needs valid JSON objects for mapping (string values), headers and parameters', () => {
    const result = validateChannelForm(
      { ...valid(), model_mapping: '{"a": 1}', model_headers: '[1]', custom_parameter: '{oops', plugin: '"x"' },
      'create',
      { id: null, provider: openai },
      t,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.model_mapping).toMatch(/^channel:form.errors.jsonStrings/);
    expect(result.errors.model_headers).toMatch(/^channel:form.errors.jsonObject/);
    expect(result.errors.custom_parameter).toMatch(/^channel:form.errors.jsonObject/);
    expect(result.errors.plugin).toMatch(/^channel:form.errors.jsonObject/);
    const fixed = validateChannelForm(
      { ...valid(), model_mapping: '{"a": "+b"}' },
      'create',
      { id: null, provider: openai },
      t,
    );
    expect(fixed.ok).toBe(true);
  });

  it('checks priority ≥ 0 and weight ≥ 1 as whole numbers', () => {
    const bad = validateChannelForm(
      { ...valid(), priority: '-1', weight: '0' },
      'create',
      { id: null, provider: openai },
      t,
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.errors).toMatchObject({
        priority: 'channel:form.errors.priority',
        weight: 'channel:form.errors.weight',
      });
    const fraction = validateChannelForm({ ...valid(), weight: '1.5' }, 'create', { id: null, provider: openai }, t);
    expect(fraction.ok).toBe(false);
  });

  it('asks for the base URL and the required extra setting of the type', () => {
    const result = validateChannelForm({ ...valid(), type: 3 }, 'create', { id: null, provider: azure }, t);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.base_url).toBe('channel:form.errors.baseUrlRequired');
    expect(result.errors.other).toBe('channel:form.errors.otherRequired');
    const filled = { ...valid(), type: 3, base_url: 'https://x.openai.azure.com', other: '2024-10-21' };
    expect(validateChannelForm(filled, 'create', { id: null, provider: azure }, t).ok).toBe(true);
    const notUrl = validateChannelForm(
      { ...valid(), base_url: 'ftp://x' },
      'create',
      { id: null, provider: openai },
      t,
    );
    expect(notUrl.ok).toBe(false);
  });

  it('keeps the stored key when editing with an empty key', () => {
    const result = validateChannelForm({ ...valid(), key: '' }, 'edit', { id: 7, provider: openai }, t);
    expect(result.ok).toBe(true);
    if (!result.ok || result.mode !== 'edit') return;
    expect(result.body.id).toBe(7);
    expect(result.body.key).toBeUndefined();
    expect(result.body.models).toBe('gpt-4o,gpt-4*');
  });

  it('sends only the shared settings for a tag, and needs its keys', () => {
    const noKey = validateChannelForm({ ...valid(), key: ' ' }, 'tag', { id: null, provider: openai }, t);
    expect(noKey.ok).toBe(false);
    const result = validateChannelForm(
      { ...valid(), name: '', priority: 'x', key: 'a\nb' },
      'tag',
      { id: null, provider: openai },
      t,
    );
    expect(result.ok).toBe(true);
    if (!result.ok || result.mode !== 'tag') return;
    expect(result.body.key).toBe('a\nb');
    expect(result.body).not.toHaveProperty('priority');
    expect(result.body).not.toHaveProperty('type');
  });
});

describe('form conversions', () => {
  it('reads a channel into the form, JSON indented, and copies it without its key', () => {
    const form = channelToForm(channel, 'sk-x');
    expect(form).toMatchObject({
      key: 'sk-x',
      models: ['gpt-4o', 'gpt-4*', 'o1'],
      group: ['default', 'vip'],
      routing_strategy: 'latency',
    });
    expect(formToInput(form).routing_strategy).toBe('latency');
    expect(form.model_mapping).toBe('{\n  "a": "b"\n}');
    expect(JSON.parse(form.plugin)).toEqual({ voice: { alloy: 'x' } });
    expect(copyToForm(channel)).toMatchObject({ name: 'main_copy', key: '', priority: '5', weight: '3' });
  });

  it('counts the channels a creation makes', () => {
    expect(keyLineCount('')).toBe(0);
    expect(keyLineCount('a\n\nb\na\n')).toBe(2);
    expect(keyLineCount('{\n"type": "service_account"\n}')).toBe(1);
  });

  it('lists models: priced for a type, merged without duplicates, testable without wildcards', () => {
    const prices = [
      { model: 'b', channel_type: 1 },
      { model: 'a', channel_type: 1 },
      { model: 'c', channel_type: 14 },
    ];
    expect(pricedModelsFor(prices, 1)).toEqual(['a', 'b']);
    expect(mergeModels(['a', 'b'], ['b', ' c ', ''])).toEqual(['a', 'b', 'c']);
    expect(testableModels(channel)).toEqual(['o1', 'gpt-4o']);
  });
});

describe('formFieldOf', () => {
  it("finds the form's field for the field a server refusal names", () => {
    expect(formFieldOf('model_mapping')).toBe('model_mapping');
    expect(formFieldOf('base_url')).toBe('base_url');
    expect(formFieldOf('priority_weight')).toBeUndefined();
  });
});
