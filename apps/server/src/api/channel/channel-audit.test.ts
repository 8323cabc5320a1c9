import { describe, expect, it } from 'vitest';
import { auditRowCount, auditText, storedAuditRows } from '../../../test/api/audit-rows.js';
import { useChannelAdmin } from '../../../test/api/channel-admin.js';
import { channelBody } from '../../../test/api/channel-support.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('audit rows of channel changes on %s', (dialect) => {
  const session = useChannelAdmin(dialect);
  const rows = (targetId?: number) => storedAuditRows(session.t, { resource: 'channel', targetId });

  async function createChannel(overrides: Record<string, unknown>): Promise<number[]> {
    const response = await session.call('POST', '/api/channel/', session.root, channelBody(overrides));
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data as Array<{ id: number }>).map((channel) => channel.id);
  }

  it('records a creation, an edit of priority and key, and a deletion, with root as the actor', async () => {
    const [id] = await createChannel({ name: 'audited', key: 'sk-first-secret-0001', priority: 0 });
    const edited = await session.call('PUT', '/api/channel/', session.root, {
      id,
      priority: 5,
      key: 'sk-second-secret-0002',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await session.call('DELETE', `/api/channel/${id}`, session.root)).statusCode).toBe(200);

    const [created, updated, deleted] = await rows(id);
    expect(created).toMatchObject({
      actor_name: 'root',
      actor_role: 100,
      action: 'create',
      target_id: String(id),
      target_name: 'audited',
    });
    expect(created?.changes).toMatchObject({
      name: { after: 'audited' },
      priority: { after: 0 },
      key: { secret: true },
    });
    expect(created?.changes).not.toHaveProperty('used_quota');
    expect(updated).toMatchObject({ action: 'update', target_name: 'audited' });
    expect(updated?.changes).toEqual({ priority: { before: 0, after: 5 }, key: { secret: true } });
    expect(deleted).toMatchObject({ action: 'delete', target_name: 'audited' });
    expect(deleted?.changes).toMatchObject({ name: { before: 'audited' } });
    // Neither key is kept anywhere in any row, not even in part.
    const stored = await auditText(session.t);
    for (const secret of ['first-secret-0001', 'second-secret-0002']) expect(stored).not.toContain(secret);
  });

  it('names a status change enable or disable, and records nothing for a refused or empty edit', async () => {
    const [id] = await createChannel({ name: 'toggled' });
    const before = await auditRowCount(session.t);
    const refused = await session.call('PUT', '/api/channel/', session.root, { id, priority: 'high' });
    expect(refused.statusCode).toBe(400);
    const badGroup = await session.call('PUT', '/api/channel/', session.root, { id, models: 'gpt-4o', group: 'nope' });
    expect(badGroup.statusCode).toBe(400);
    expect((await session.call('PUT', '/api/channel/', session.root, { id, weight: 1 })).statusCode).toBe(200);
    expect(await auditRowCount(session.t)).toBe(before);

    expect((await session.call('PUT', '/api/channel/', session.root, { id, status: 2 })).statusCode).toBe(200);
    expect((await session.call('PUT', '/api/channel/', session.root, { id, status: 1 })).statusCode).toBe(200);
    const [, disabled, enabled] = await rows(id);
    expect(disabled).toMatchObject({ action: 'disable', changes: { status: { before: 1, after: 2 } } });
    expect(enabled).toMatchObject({ action: 'enable', changes: { status: { before: 2, after: 1 } } });
  });

  it('records one row per channel of the batch routes and of deleting disabled channels', async () => {
    const ids = await createChannel({ name: 'batch', key: 'sk-batch-a\nsk-batch-b', models: 'gpt-4o,old-model' });
    const removed = await session.call('PUT', '/api/channel/batch/del_model', session.root, {
      ids,
      value: 'old-model',
    });
    expect(removed.statusCode, removed.body).toBe(200);
    for (const id of ids) {
      expect((await rows(id)).at(-1)).toMatchObject({
        action: 'update',
        changes: { models: { before: 'gpt-4o,old-model', after: 'gpt-4o' } },
      });
    }
    const [first, second] = ids as [number, number];
    await session.call('PUT', '/api/channel/', session.root, { id: first, status: 2 });
    expect((await session.call('DELETE', '/api/channel/disabled', session.root)).json().data).toBe(1);
    expect((await rows(first)).at(-1)).toMatchObject({ action: 'delete', target_name: 'batch' });
    expect((await rows(second)).at(-1)?.action).toBe('update');
    const deleted = await session.call('DELETE', '/api/channel/batch', session.root, { ids: [second] });
    expect(deleted.statusCode).toBe(200);
    expect((await rows(second)).at(-1)).toMatchObject({ action: 'delete', target_name: 'batch_2' });
  });

  it('records the tag routes per channel: shared settings, priority, status, keys added and removed', async () => {
    const ids = await createChannel({ name: 'tagged', tag: 'team', key: 'sk-tag-one\nsk-tag-two' });
    const [first, second] = ids as [number, number];
    const priority = await session.call('PUT', '/api/channel_tag/team/priority', session.root, {
      type: 'priority',
      value: 7,
    });
    expect(priority.statusCode, priority.body).toBe(200);
    expect((await rows(first)).at(-1)).toMatchObject({
      action: 'update',
      changes: { priority: { before: 0, after: 7 } },
    });
    expect((await session.call('PUT', '/api/channel_tag/team/status/disable', session.root)).statusCode).toBe(200);
    expect((await rows(second)).at(-1)).toMatchObject({ action: 'disable' });

    const before = await auditRowCount(session.t);
    const refused = await session.call('PUT', '/api/channel_tag/team', session.root, {
      key: 'sk-tag-one',
      group: 'nope',
      models: 'gpt-4o',
    });
    expect(refused.statusCode).toBe(400);
    expect(await auditRowCount(session.t)).toBe(before);

    const edited = await session.call('PUT', '/api/channel_tag/team', session.root, {
      key: 'sk-tag-one\nsk-tag-three',
      models: 'gpt-4o',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await rows(first)).at(-1)).toMatchObject({ action: 'update', changes: { models: { after: 'gpt-4o' } } });
    expect((await rows(second)).at(-1)).toMatchObject({ action: 'delete' });
    const created = (await rows()).at(-1);
    expect(created).toMatchObject({ action: 'create', changes: { key: { secret: true }, tag: { after: 'team' } } });
    expect(await auditText(session.t)).not.toContain('sk-tag-');
  });

  it('records no row for a common user refused at the door', async () => {
    const before = await auditRowCount(session.t);
    const refused = await session.call('POST', '/api/channel/', session.plain, channelBody({ name: 'nope' }));
    expect(refused.statusCode).toBe(403);
    expect(await auditRowCount(session.t)).toBe(before);
  });
});
