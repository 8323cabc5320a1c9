import { describe, expect, it } from 'vitest';
import { useChannelAdmin } from '../../../test/api/channel-admin.js';
import { channelBody } from '../../../test/api/channel-support.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('channel updates and deletes on %s', (dialect) => {
  const s = useChannelAdmin(dialect, { vipGroup: true });

  const create = async (overrides: Record<string, unknown> = {}): Promise<number[]> => {
    const response = await s.call('POST', '/api/channel/', s.root, channelBody(overrides));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.map((channel: { id: number }) => channel.id);
  };
  const get = async (id: number) => (await s.call('GET', `/api/channel/${id}`, s.root)).json().data;
  const exists = async (id: number) => (await s.call('GET', `/api/channel/${id}`, s.root)).statusCode === 200;

  it('partially updates without models: status and priority toggles keep everything else', async () => {
    const [id = 0] = await create({ name: 'toggle', key: 'sk-toggle', base_url: 'https://up.example.com' });
    s.published.length = 0;
    const disabled = await s.call('PUT', '/api/channel/', s.root, { id, status: 2 });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().data).toMatchObject({ id, status: 2, name: 'toggle', priority: 0 });
    expect(disabled.json().data).not.toHaveProperty('key');
    expect(s.published).toEqual([String(id)]);
    await s.call('PUT', '/api/channel/', s.root, { id, priority: 7, models: '' });
    expect(await get(id)).toMatchObject({
      status: 2,
      priority: 7,
      key: 'sk-toggle',
      models: 'gpt-4o,gpt-4o-mini',
      base_url: 'https://up.example.com',
    });
    await s.call('PUT', '/api/channel/', s.root, { id, priority: 0, status: 1 });
    expect(await get(id)).toMatchObject({ status: 1, priority: 0 });
  });

  it('updates a whole channel when models are given; an empty key keeps the stored one', async () => {
    const [id = 0] = await create({ name: 'whole', key: 'sk-whole' });
    const response = await s.call('PUT', '/api/channel/', s.root, {
      ...(await get(id)),
      key: '',
      name: 'whole-renamed',
      models: 'gpt-4.1, o3',
      group: 'default,vip',
      model_mapping: '{"o3": "o3-2025-04-16"}',
      // Read-only fields a console sends back are ignored.
      balance: 99,
      used_quota: 12345,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await get(id)).toMatchObject({
      name: 'whole-renamed',
      key: 'sk-whole',
      models: 'gpt-4.1,o3',
      group: 'default,vip',
      model_mapping: '{"o3": "o3-2025-04-16"}',
      balance: 0,
      used_quota: 0,
    });
    await s.call('PUT', '/api/channel/', s.root, { id, key: 'sk-whole-new' });
    expect((await get(id)).key).toBe('sk-whole-new');
  });

  it('sets the Azure API version and removes a model in batches', async () => {
    const ids = await create({ name: 'batch', key: 'sk-b1\nsk-b2\nsk-b3', models: 'gpt-4o,gpt-4o-mini,o1' });
    const [first = 0, second = 0, third = 0] = ids;
    s.published.length = 0;
    const azure = await s.call('PUT', '/api/channel/batch/azure_api', s.root, {
      ids: [first, second],
      value: '2024-10-21',
    });
    expect(azure.json()).toMatchObject({ success: true, data: 2 });
    expect(s.published).toHaveLength(1);
    expect((await get(first)).other).toBe('2024-10-21');
    expect((await get(third)).other).toBe('');

    const removed = await s.call('PUT', '/api/channel/batch/del_model', s.root, { ids: [second, third], value: 'o1' });
    expect(removed.json().data).toBe(2);
    expect((await get(second)).models).toBe('gpt-4o,gpt-4o-mini');
    expect((await get(first)).models).toBe('gpt-4o,gpt-4o-mini,o1');
    const again = await s.call('PUT', '/api/channel/batch/del_model', s.root, { ids: [second], value: 'o1' });
    expect(again.json().data).toBe(0);

    const bad = await s.call('PUT', '/api/channel/batch/del_model', s.root, { ids: [], value: 'o1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('ids');
    const noValue = await s.call('PUT', '/api/channel/batch/azure_api', s.root, { ids: [first] });
    expect(noValue.json().message).toContain('value');
  });

  it('deletes in batches, softly', async () => {
    const [first = 0, second = 0, third = 0] = await create({ name: 'gone', key: 'sk-g1\nsk-g2\nsk-g3' });
    const response = await s.call('DELETE', '/api/channel/batch', s.root, {
      ids: [first, second, 999999],
      value: null,
    });
    expect(response.json()).toMatchObject({ success: true, data: 2 });
    expect(await exists(first)).toBe(false);
    expect(await exists(third)).toBe(true);
    const row = await s.t.database.db
      .selectFrom('channels')
      .select('deleted_at')
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect((await s.call('DELETE', '/api/channel/batch', s.root, { ids: 'all' })).statusCode).toBe(400);
  });

  it('deletes disabled channels (manually or automatically) and one channel by id', async () => {
    const [enabled = 0, manual = 0, automatic = 0] = await create({ name: 'dis', key: 'sk-d1\nsk-d2\nsk-d3' });
    await s.call('PUT', '/api/channel/', s.root, { id: manual, status: 2 });
    await s.t.services.channels.setStatus(automatic, 3, 'upstream said 401');
    const response = await s.call('DELETE', '/api/channel/disabled', s.root);
    expect(response.json().data).toBeGreaterThanOrEqual(2);
    expect([await exists(enabled), await exists(manual), await exists(automatic)]).toEqual([true, false, false]);

    s.published.length = 0;
    expect((await s.call('DELETE', `/api/channel/${enabled}`, s.root)).statusCode).toBe(200);
    expect(await exists(enabled)).toBe(false);
    expect(s.published).toEqual([String(enabled)]);
    expect((await s.call('DELETE', `/api/channel/${enabled}`, s.root)).statusCode).toBe(404);
  });

  it('clears the tag of one channel', async () => {
    const [id = 0] = await create({ name: 'tagged-one', tag: 'solo' });
    expect((await s.call('DELETE', `/api/channel/${id}/tag`, s.root)).statusCode).toBe(200);
    expect((await get(id)).tag).toBe('');
    expect((await s.call('DELETE', '/api/channel/999999/tag', s.root)).statusCode).toBe(404);
  });

  it('gives the relay enabled channels with keys opened and settings parsed', async () => {
    const [id = 0] = await create({
      name: 'route-me',
      key: 'sk-route',
      models: ' gpt-4o , claude-3* ',
      group: 'default,vip',
      model_mapping: '{"gpt-4o": "+gpt-4o-2024-08-06"}',
      model_headers: '{"X-Team": "a"}',
      custom_parameter: '{"overwrite": true}',
      proxy: 'http://user-%s@proxy.example.com:8080',
      plugin: { customize: { 1: '/chat' } },
      disabled_stream: ['o1'],
      only_chat: true,
      priority: 3,
    });
    const [disabled = 0] = await create({ name: 'route-not', key: 'sk-route-not', status: 2 });
    s.published.length = 0;
    const routing = await s.t.services.channels.listForRouting();
    expect(routing.some((channel) => channel.id === disabled)).toBe(false);
    const channel = routing.find((candidate) => candidate.id === id);
    expect(channel).toMatchObject({
      key: 'sk-route',
      models: ['gpt-4o', 'claude-3*'],
      group: ['default', 'vip'],
      model_mapping: { 'gpt-4o': '+gpt-4o-2024-08-06' },
      model_headers: { 'X-Team': 'a' },
      custom_parameter: { overwrite: true },
      plugin: { customize: { 1: '/chat' } },
      disabled_stream: ['o1'],
      only_chat: true,
      compatible_response: false,
      priority: 3,
      weight: 1,
    });
    expect(channel?.proxy).toMatch(/^http:\/\/user-[0-9a-f]{32}@proxy\.example\.com:8080$/);

    await s.t.services.channels.recordTest(id, 812.4);
    expect(await get(id)).toMatchObject({ response_time: 812 });
    expect((await get(id)).test_time).toBeGreaterThan(0);
    await s.t.services.channels.setStatus(id, 3);
    expect((await s.t.services.channels.listForRouting()).some((candidate) => candidate.id === id)).toBe(false);
    expect((await s.t.services.channels.findForRouting(id))?.status).toBe(3);
    // The status change reloads the routers; a test result is not a routing fact and does not.
    expect(s.published).toEqual([String(id)]);
  });

  it('moves automatically only between enabled and automatically disabled, never out of a manual disable', async () => {
    const [manual = 0, automatic = 0] = await create({ name: 'auto-moves', key: 'sk-am1\nsk-am2' });
    await s.call('PUT', '/api/channel/', s.root, { id: manual, status: 2 });
    s.published.length = 0;
    // A test that passed, or a failure, reported after the administrator switched the channel off.
    expect(await s.t.services.channels.setStatus(manual, 1)).toBe(false);
    expect(await s.t.services.channels.setStatus(manual, 3)).toBe(false);
    expect((await get(manual)).status).toBe(2);
    expect(s.published).toEqual([]);
    expect(await s.t.services.channels.setStatus(automatic, 3)).toBe(true);
    expect(await s.t.services.channels.setStatus(automatic, 3)).toBe(false);
    expect(await s.t.services.channels.setStatus(automatic, 1)).toBe(true);
    expect((await get(automatic)).status).toBe(1);
  });
});
