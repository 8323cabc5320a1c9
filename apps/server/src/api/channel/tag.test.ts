import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useChannelAdmin } from '../../../test/api/channel-admin.js';
import { channelBody, channelCount } from '../../../test/api/channel-support.js';
import { availableDialects } from '../../../test/databases.js';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

interface Row {
  id: number;
  name: string;
  status: number;
  priority: number;
  models: string;
  base_url: string;
  tag: string;
  routing_strategy: string;
}

describe.each(availableDialects)('channel tags on %s', (dialect) => {
  const s = useChannelAdmin(dialect, { vipGroup: true });

  const createTag = async (tag: string, keys: string[]) => {
    const response = await s.call(
      'POST',
      '/api/channel/',
      s.root,
      channelBody({ name: tag, tag, key: keys.join('\n') }),
    );
    expect(response.statusCode, response.body).toBe(200);
  };
  const members = async (tag: string): Promise<Row[]> => {
    const response = await s.call('GET', `/api/channel_tag/${encodeURIComponent(tag)}/list`, s.root);
    return response.statusCode === 200 ? response.json().data : [];
  };

  it('lists distinct tags and the channels of one tag, without keys', async () => {
    await createTag('team-a', ['sk-a1', 'sk-a2']);
    await createTag('team-b', ['sk-b1']);
    await s.call('POST', '/api/channel/', s.root, channelBody({ name: 'untagged' }));
    const all = (await s.call('GET', '/api/channel_tag/_all', s.root)).json().data;
    expect(all).toEqual([
      { id: 0, tag: 'team-a' },
      { id: 0, tag: 'team-b' },
    ]);
    const list = await s.call('GET', '/api/channel_tag/team-a/list', s.root);
    expect(list.json().data.map((row: Row) => row.name)).toEqual(['team-a', 'team-a_2']);
    expect(list.body).not.toContain('sk-a1');
    expect((await s.call('GET', '/api/channel_tag/nobody/list', s.root)).statusCode).toBe(404);
  });

  it('opens a tag with every key and the key map', async () => {
    const response = await s.call('GET', '/api/channel_tag/team-a', s.root);
    expect(response.statusCode).toBe(200);
    const view = response.json().data;
    const [first, second] = await members('team-a');
    expect(view).toMatchObject({ id: first?.id, name: 'team-a', key: 'sk-a1\nsk-a2' });
    expect(view.KeyMap).toEqual({ [md5('sk-a1')]: first?.id, [md5('sk-a2')]: second?.id });
    const missing = await s.call('GET', '/api/channel_tag/nobody', s.root);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('nobody');
  });

  it('edits a tag: drops unlisted keys, clones for new keys, writes shared settings to all', async () => {
    const before = await members('team-a');
    s.published.length = 0;
    const response = await s.call('PUT', '/api/channel_tag/team-a', s.root, {
      key: 'sk-a2\nsk-a3\n\nsk-a4',
      models: 'gpt-4.1,o3',
      base_url: 'https://shared.example.com',
      group: 'vip',
      priority: 9,
      routing_strategy: 'latency',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({ added: 2, removed: 1, updated: 1 });
    expect(s.published).toHaveLength(1);

    const after = await members('team-a');
    expect(after.map((row) => row.name)).toEqual(['team-a_2', 'team-a_3', 'team-a_4']);
    expect(after[0]?.id).toBe(before[1]?.id);
    for (const row of after) {
      expect(row).toMatchObject({
        models: 'gpt-4.1,o3',
        base_url: 'https://shared.example.com',
        status: 1,
        routing_strategy: 'latency',
      });
      // priority is not among the shared settings of a tag edit.
      expect(row.priority).toBe(0);
    }
    expect((await s.call('GET', '/api/channel_tag/team-a', s.root)).json().data.key).toBe('sk-a2\nsk-a3\nsk-a4');
    expect((await s.call('GET', `/api/channel/${after[2]?.id}`, s.root)).json().data.group).toBe('vip');
  });

  it('validates tag edits and writes nothing when they are bad', async () => {
    const count = await channelCount(s.t);
    for (const [field, body] of [
      ['key', { key: '' }],
      ['models', { key: 'sk-a2\nsk-new', models: 'gp*t' }],
      ['group', { key: 'sk-a2\nsk-new', group: 'ghost' }],
      ['model_mapping', { key: 'sk-a2', model_mapping: '{bad' }],
      ['routing_strategy', { key: 'sk-a2', routing_strategy: 'fastest' }],
    ] as const) {
      const response = await s.call('PUT', '/api/channel_tag/team-a', s.root, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect(await channelCount(s.t)).toBe(count);
    expect((await s.call('PUT', '/api/channel_tag/nobody', s.root, { key: 'sk-x' })).statusCode).toBe(404);
  });

  it('sets priority and status for a whole tag', async () => {
    const priority = await s.call('PUT', '/api/channel_tag/team-a/priority', s.root, { type: 'priority', value: 4 });
    expect(priority.json().data).toBe(3);
    expect((await members('team-a')).map((row) => row.priority)).toEqual([4, 4, 4]);
    const wrongType = await s.call('PUT', '/api/channel_tag/team-a/priority', s.root, { type: 'weight', value: 4 });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toContain('type');

    expect((await s.call('PUT', '/api/channel_tag/team-a/status/disable', s.root)).json().data).toBe(3);
    expect((await members('team-a')).map((row) => row.status)).toEqual([2, 2, 2]);
    await s.call('PUT', '/api/channel_tag/team-a/status/enable', s.root);
    expect((await members('team-a')).map((row) => row.status)).toEqual([1, 1, 1]);
    expect((await s.call('PUT', '/api/channel_tag/team-a/status/maybe', s.root)).statusCode).toBe(400);
    expect((await s.call('PUT', '/api/channel_tag/nobody/status/enable', s.root)).statusCode).toBe(404);
  });

  it('deletes the disabled channels of a tag, then the whole tag', async () => {
    const [first, second] = await members('team-a');
    await s.call('PUT', '/api/channel/', s.root, { id: first?.id, status: 2 });
    await s.t.services.channels.setStatus(second?.id ?? 0, 3);
    const disabled = await s.call('DELETE', '/api/channel_tag/team-a/disabled', s.root);
    expect(disabled.json().data).toBe(2);
    expect((await members('team-a')).map((row) => row.name)).toEqual(['team-a_4']);

    expect((await s.call('DELETE', '/api/channel_tag/team-a', s.root)).json().data).toBe(1);
    expect(await members('team-a')).toEqual([]);
    expect((await s.call('DELETE', '/api/channel_tag/team-a', s.root)).statusCode).toBe(404);
    expect((await s.call('GET', '/api/channel_tag/_all', s.root)).json().data).toEqual([{ id: 0, tag: 'team-b' }]);
  });

  it('is for administrators only', async () => {
    for (const [method, url] of [
      ['GET', '/api/channel_tag/team-b'],
      ['GET', '/api/channel_tag/team-b/list'],
      ['PUT', '/api/channel_tag/team-b/status/disable'],
      ['DELETE', '/api/channel_tag/team-b'],
    ] as const) {
      expect((await s.call(method, url)).statusCode).toBe(401);
      expect((await s.call(method, url, s.plain)).statusCode).toBe(403);
    }
    expect(await members('team-b')).toHaveLength(1);
  });
});
