import { beforeAll, describe, expect, it } from 'vitest';
import { useChannelAdmin } from '../../../test/api/channel-admin.js';
import { channelBody } from '../../../test/api/channel-support.js';
import { ROOT_TOKEN } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';

describe.each(availableDialects)('channels on %s', (dialect) => {
  const s = useChannelAdmin(dialect, { vipGroup: true });

  const names = async (query: string): Promise<string[]> => {
    const response = await s.call('GET', `/api/channel/?size=100&order=name&${query}`, s.root);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.data.map((row: { name: string }) => row.name);
  };

  it('creates one channel per key line, pairing base URLs by line, in one call', async () => {
    const before = s.published.length;
    const response = await s.call(
      'POST',
      '/api/channel/',
      s.root,
      channelBody({
        name: 'pair',
        type: providerType('custom'),
        key: 'sk-pair-one\n\n  sk-pair-two  \n',
        base_url: 'https://one.example.com/\nhttps://two.example.com',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const created = response.json().data;
    expect(created.map((channel: { name: string }) => channel.name)).toEqual(['pair', 'pair_2']);
    expect(created.map((channel: { base_url: string }) => channel.base_url)).toEqual([
      'https://one.example.com',
      'https://two.example.com',
    ]);
    expect(created[0]).toMatchObject({
      status: 1,
      weight: 1,
      priority: 0,
      group: 'default',
      type: providerType('custom'),
    });
    expect(response.body).not.toContain('sk-pair');
    expect(s.published.length).toBeGreaterThan(before);

    const detail = (await s.call('GET', `/api/channel/${created[1].id}`, s.root)).json().data;
    expect(detail.key).toBe('sk-pair-two');
  });

  it('keeps a multi-line JSON key (service account) as one key', async () => {
    const key = '{\n  "type": "service_account",\n  "project_id": "demo"\n}';
    const response = await s.call(
      'POST',
      '/api/channel/',
      s.root,
      channelBody({
        name: 'vertex',
        type: providerType('vertexai'),
        key,
        other: 'us-central1|demo',
        models: 'gemini-2.0-flash',
      }),
    );
    expect(response.json().data).toHaveLength(1);
    expect((await s.call('GET', `/api/channel/${response.json().data[0].id}`, s.root)).json().data.key).toBe(key);
  });

  it('stores keys encrypted and never lists them', async () => {
    const created = (
      await s.call('POST', '/api/channel/', s.root, channelBody({ name: 'secret', key: 'sk-very-secret-key-123' }))
    ).json().data[0];
    const stored = await s.t.database.db
      .selectFrom('channels')
      .select('key')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.key).not.toContain('sk-very-secret-key-123');
    const list = await s.call('GET', '/api/channel/?size=100', s.root);
    expect(list.body).not.toContain('sk-very-secret-key-123');
    expect(list.body).not.toContain(stored.key);
    for (const row of list.json().data.data) expect(row).not.toHaveProperty('key');
    expect((await s.call('GET', `/api/channel/${created.id}`, s.root)).json().data.key).toBe('sk-very-secret-key-123');
  });

  describe('filters', () => {
    beforeAll(async () => {
      const create = (body: Record<string, unknown>) => s.call('POST', '/api/channel/', s.root, channelBody(body));
      await create({
        name: 'flt-one',
        key: 'sk-flt-1',
        models: 'gpt-4o,gpt-4o-mini',
        other: 'alpha-x',
        test_model: 'gpt-4o-mini',
      });
      await create({
        name: 'flt-two',
        type: providerType('deepseek'),
        key: 'sk-flt-2',
        group: 'default, vip',
        models: 'deepseek-chat',
        other: 'beta',
        test_model: 'deepseek-chat',
        status: 2,
      });
      await create({
        name: 'flt-tagged',
        key: 'sk-flt-3\nsk-flt-4',
        group: 'vip',
        models: 'claude-3*',
        tag: 'flt-tag',
      });
    });

    it('folds tags by filter_tag: 0 one row per tag, 1 untagged only, 2 tags only, 3 nothing folded', async () => {
      expect(await names('name=flt-')).toEqual(['flt-one', 'flt-tagged_2', 'flt-two']);
      expect(await names('name=flt-&filter_tag=1')).toEqual(['flt-one', 'flt-two']);
      expect(await names('name=flt-&filter_tag=2')).toEqual(['flt-tagged_2']);
      expect(await names('name=flt-&filter_tag=3')).toEqual(['flt-one', 'flt-tagged', 'flt-tagged_2', 'flt-two']);
      expect(await names('tag=flt-tag&filter_tag=3')).toEqual(['flt-tagged', 'flt-tagged_2']);
      expect((await s.call('GET', '/api/channel/?filter_tag=4', s.root)).statusCode).toBe(400);
      expect(await names('tag=flt-tag')).toEqual(['flt-tagged_2']);
      expect(await names('tag=flt-ta')).toEqual([]);
    });

    it('filters by type, status, name, group element, models, other, key and test model', async () => {
      expect(await names('name=FLT-&filter_tag=1')).toEqual(['flt-one', 'flt-two']);
      expect(await names(`name=flt-&type=${providerType('deepseek')}`)).toEqual(['flt-two']);
      expect(await names('name=flt-&status=2')).toEqual(['flt-two']);
      expect(await names('name=flt-&status=1&filter_tag=1')).toEqual(['flt-one']);
      expect(await names('name=flt-&group=vip&filter_tag=1')).toEqual(['flt-two']);
      expect(await names('name=flt-&group=vi')).toEqual([]);
      expect(await names('name=flt-&group=default')).toEqual(['flt-one', 'flt-two']);
      expect(await names('name=flt-&models=4O-MINI')).toEqual(['flt-one']);
      expect(await names('name=flt-&other=alp')).toEqual(['flt-one']);
      expect(await names('name=flt-&other=lpha')).toEqual([]);
      expect(await names('key=sk-flt-2')).toEqual(['flt-two']);
      expect(await names('key=sk-flt')).toEqual([]);
      expect(await names('key=sk-flt-3&filter_tag=1')).toEqual([]);
      expect(await names('name=flt-&test_model=deepseek')).toEqual(['flt-two']);
      expect(await names('name=flt-&test_model=chat')).toEqual([]);
    });

    it('orders and pages, refusing unknown order fields', async () => {
      const descending = await s.call('GET', '/api/channel/?name=flt-&filter_tag=1&order=-name&size=1&page=2', s.root);
      expect(descending.json().data).toMatchObject({ page: 2, size: 1, total_count: 2 });
      expect(descending.json().data.data[0].name).toBe('flt-one');
      for (const field of ['group', 'priority', 'weight', 'balance', 'response_time', 'status', 'type']) {
        expect((await s.call('GET', `/api/channel/?order=-${field}`, s.root)).statusCode).toBe(200);
      }
      const bad = await s.call('GET', '/api/channel/?order=key', s.root);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('order');
      expect((await s.call('GET', '/api/channel/?filter_tag=5', s.root)).json().message).toContain('filter_tag');
    });
  });

  it('answers 404 for unknown channels and 400 for bad ids', async () => {
    expect((await s.call('GET', '/api/channel/999999', s.root)).statusCode).toBe(404);
    expect((await s.call('DELETE', '/api/channel/999999', s.root)).statusCode).toBe(404);
    expect((await s.call('PUT', '/api/channel/', s.root, { id: 999999, status: 2 })).statusCode).toBe(404);
    expect((await s.call('GET', '/api/channel/abc', s.root)).statusCode).toBe(400);
  });

  it('is for administrators only', async () => {
    const routes: Array<[method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string]> = [
      ['GET', '/api/channel/'],
      ['GET', '/api/channel/1'],
      ['GET', '/api/channel/models'],
      ['GET', '/api/providers'],
      ['POST', '/api/channel/'],
      ['PUT', '/api/channel/'],
      ['PUT', '/api/channel/batch/del_model'],
      ['DELETE', '/api/channel/batch'],
      ['DELETE', '/api/channel/disabled'],
      ['DELETE', '/api/channel/1/tag'],
      ['GET', '/api/channel_tag/_all'],
      ['PUT', '/api/channel_tag/x/priority'],
    ];
    const before = s.published.length;
    for (const [method, url] of routes) {
      const payload = method === 'GET' ? undefined : channelBody();
      expect((await s.call(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
      expect((await s.call(method, url, s.plain, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(s.published.length).toBe(before);
    const byToken = await s.t.app.inject({
      method: 'GET',
      url: '/api/channel/',
      headers: { authorization: ROOT_TOKEN },
    });
    expect(byToken.statusCode).toBe(200);
  });
});
