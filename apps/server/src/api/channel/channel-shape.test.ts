import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape, pagedShape, type Shape, successData } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';

/**
 * A channel as the reference's console reads it (§3.1 channels): the channel table, its row
 * actions and the edit dialog, which parses the three JSON texts itself ('' for none) and turns a
 * null `plugin` into {}. Lists leave the key out; the detail adds it.
 */
const channelShape: Shape = {
  id: 'number',
  type: 'number',
  status: 'number',
  name: 'string',
  weight: 'number',
  created_time: 'number',
  test_time: 'number',
  response_time: 'number',
  base_url: 'string',
  other: 'string',
  balance: 'number',
  balance_updated_time: 'number',
  models: 'string',
  group: 'string',
  tag: 'string',
  used_quota: 'number',
  model_mapping: 'string',
  model_headers: 'string',
  custom_parameter: 'string',
  priority: 'number',
  proxy: 'string',
  test_model: 'string',
  only_chat: 'boolean',
  pre_cost: 'number',
  compatible_response: 'boolean',
  allow_extra_body: 'boolean',
  disabled_stream: ['string'],
  plugin: 'object|null',
};

const channelDetailShape: Shape = { ...channelShape, key: 'string' };

describe.each(availableDialects)('channel routes have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;
  let id: number;

  const data = (method: 'GET' | 'POST', url: string, payload?: object) =>
    successData(t, method, url, { authorization: ROOT_TOKEN }, payload);

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const created = (await data('POST', '/api/channel/', {
      ...{
        name: 'alpha',
        type: providerType('openai'),
        key: 'sk-alpha',
        models: 'gpt-4o',
        group: 'default',
        tag: 'team',
      },
      ...{ model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}', disabled_stream: ['gpt-4o'], plugin: { a: { b: 1 } } },
    })) as Array<{ id: number }>;
    id = created[0]?.id ?? 0;
    // Values the database must hand back as numbers: a fractional balance, big counters.
    await t.database.db
      .updateTable('channels')
      .set({ balance: 12.5, used_quota: 9_000_000_000, test_time: 1_700_000_000, response_time: 321, priority: 7 })
      .where('id', '=', id)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/channel/ pages channels without their keys', async () => {
    const page = (await data('GET', '/api/channel/')) as { data: Array<Record<string, unknown>> };
    expectShape(page, pagedShape(channelShape));
    expect(page.data[0]).not.toHaveProperty('key');
    expect(page.data[0]).toMatchObject({ balance: 12.5, used_quota: 9_000_000_000 });
  });

  it('GET /api/channel/:id gives one channel with its key', async () => {
    expectShape(await data('GET', `/api/channel/${id}`), channelDetailShape);
  });

  it('GET /api/channel/models lists models in the OpenAI list form, outside the envelope', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/channel/models',
      headers: { authorization: ROOT_TOKEN },
    });
    expectShape(response.json(), {
      object: 'string',
      data: [{ id: 'string', object: 'string', created: 'number', owned_by: 'string' }],
    });
  });

  it('channel tags: the tag list, one tag opened for editing, and the channels of a tag', async () => {
    expectShape({ tags: await data('GET', '/api/channel_tag/_all') }, { tags: [{ id: 'number', tag: 'string' }] });
    expectShape(await data('GET', '/api/channel_tag/team'), { ...channelDetailShape, KeyMap: 'object' });
    expectShape({ channels: await data('GET', '/api/channel_tag/team/list') }, { channels: [channelShape] });
  });
});
