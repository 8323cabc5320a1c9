import { createChannelBody, modelEntryProblem } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { useChannelAdmin } from '../../../test/api/channel-admin.js';
import { channelBody, channelCount } from '../../../test/api/channel-support.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';

describe('model entry wildcards', () => {
  it('accepts * only as the last character, after at least one character', () => {
    expect(modelEntryProblem('gpt-3.5*')).toBeUndefined();
    expect(modelEntryProblem('gpt-4o')).toBeUndefined();
    expect(modelEntryProblem('*gpt')).toContain('only be the last');
    expect(modelEntryProblem('gp*t')).toContain('only be the last');
    expect(modelEntryProblem('*')).toContain('at least one character');
  });

  it('is the same rule the shared creation schema applies', () => {
    expect(createChannelBody.safeParse(channelBody({ models: 'gpt-3.5*, gpt-4' })).success).toBe(true);
    expect(createChannelBody.safeParse(channelBody({ models: 'gpt-4,*gpt' })).success).toBe(false);
  });
});

describe.each(availableDialects)('channel validation on %s', (dialect) => {
  const s = useChannelAdmin(dialect);

  const rejected: Array<[field: string, overrides: Record<string, unknown>]> = [
    ['name', { name: '' }],
    ['name', { name: undefined }],
    ['type', { type: 999 }],
    ['type', { type: 'openai' }],
    ['key', { key: '  \n ' }],
    ['models', { models: '' }],
    ['models', { models: ' , ' }],
    ['models', { models: 'gpt-4,*gpt' }],
    ['models', { models: 'gp*t' }],
    ['models', { models: '*' }],
    ['group', { group: '' }],
    ['group', { group: 'default,nobody' }],
    ['base_url', { type: providerType('custom') }],
    ['base_url', { base_url: 'not a url' }],
    ['base_url', { base_url: 'ftp://files.example.com' }],
    ['other', { type: providerType('azure'), base_url: 'https://x.openai.azure.com', other: '' }],
    ['model_mapping', { model_mapping: '{"gpt-4": ' }],
    ['model_mapping', { model_mapping: '["gpt-4"]' }],
    ['model_mapping', { model_mapping: '{"gpt-4": 4}' }],
    ['model_headers', { model_headers: 'X-Header: 1' }],
    ['model_headers', { model_headers: '{"X-Retry": true}' }],
    ['custom_parameter', { custom_parameter: '[1, 2]' }],
    ['custom_parameter', { custom_parameter: 12 }],
    ['plugin', { plugin: 'not json' }],
    ['plugin', { plugin: [1] }],
    ['priority', { priority: -1 }],
    ['priority', { priority: 1.5 }],
    ['weight', { weight: 0 }],
    ['proxy', { proxy: 'ftp://proxy.example.com' }],
    ['proxy', { proxy: 'proxy.example.com:8080' }],
    ['test_model', { test_model: 'm'.repeat(101) }],
    ['status', { status: 7 }],
    ['pre_cost', { pre_cost: 4 }],
    ['only_chat', { only_chat: 'yes' }],
    ['disabled_stream', { disabled_stream: 'gpt-4' }],
  ];

  it.each(rejected)('rejects a bad %s with a 400 naming it, writing nothing', async (field, overrides) => {
    const before = await channelCount(s.t);
    const publishedBefore = s.published.length;
    const response = await s.call('POST', '/api/channel/', s.root, channelBody({ name: `bad-${field}`, ...overrides }));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().message).toContain(field);
    expect(await channelCount(s.t)).toBe(before);
    expect(s.published.length).toBe(publishedBefore);
  });

  it('accepts the valid forms of every checked field', async () => {
    const response = await s.call(
      'POST',
      '/api/channel/',
      s.root,
      channelBody({
        name: 'all-valid',
        type: providerType('azure'),
        base_url: 'https://x.openai.azure.com/',
        other: '2024-10-21',
        models: 'gpt-3.5*,gpt-4o',
        model_mapping: '{"gpt-4o": "gpt-4o-2024-08-06"}',
        model_headers: { 'X-Team': 'one' },
        custom_parameter: '{"temperature": 0.2, "nested": {"a": 1}}',
        plugin: '{"voice": {"alloy": "en-US-AvaNeural"}}',
        proxy: 'socks5://user-%s:pass@127.0.0.1:1080',
        priority: '5',
        weight: 3,
        test_model: 'gpt-4o',
        disabled_stream: ['o1', ' '],
        only_chat: true,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const detail = (await s.call('GET', `/api/channel/${response.json().data[0].id}`, s.root)).json().data;
    expect(detail).toMatchObject({
      base_url: 'https://x.openai.azure.com',
      model_headers: '{"X-Team":"one"}',
      plugin: { voice: { alloy: 'en-US-AvaNeural' } },
      priority: 5,
      weight: 3,
      disabled_stream: ['o1'],
      only_chat: true,
      compatible_response: false,
    });
  });

  it('validates updates the same way, and a whole update needs name, type and group', async () => {
    const id = (await s.call('POST', '/api/channel/', s.root, channelBody({ name: 'upd-valid' }))).json().data[0].id;
    for (const [field, body] of [
      ['weight', { id, weight: 0 }],
      ['models', { id, models: '*x' }],
      ['group', { id, group: 'ghost' }],
      ['name', { id, models: 'gpt-4o' }],
      ['base_url', { id, type: providerType('custom') }],
      ['id', { status: 2 }],
    ] as const) {
      const response = await s.call('PUT', '/api/channel/', s.root, body);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(response.json().message).toContain(field);
    }
    const unchanged = (await s.call('GET', `/api/channel/${id}`, s.root)).json().data;
    expect(unchanged).toMatchObject({
      weight: 1,
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default',
      type: providerType('openai'),
    });
  });

  it('refuses bodies that are not JSON objects', async () => {
    const response = await s.t.app.inject({
      method: 'POST',
      url: '/api/channel/',
      headers: { cookie: s.root, 'content-type': 'application/json' },
      payload: '[1]',
    });
    expect(response.statusCode).toBe(400);
  });
});
