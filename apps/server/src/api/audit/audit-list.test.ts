import type { AuditLogItem, Paged } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { channelBody } from '../../../test/api/channel-support.js';
import { createAdmin, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { parseCsv } from '../../../test/csv-parse.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('GET /api/audit/ on %s', (dialect) => {
  const session = useRootAndPlain(dialect);
  let admin: { cookie: string; id: number };
  let rootId: number;
  let channelId: number;

  beforeAll(async () => {
    rootId = (await session.t.services.userRepository.findByUsername('root'))?.id ?? 0;
    // Root: a promotion, a channel created and edited; the admin: a balance change.
    admin = await createAdmin(session.t, session.root, 'audit_admin');
    const created = await session.call('POST', '/api/channel/', session.root, channelBody({ name: 'listed' }));
    channelId = created.json().data[0].id;
    await session.call('PUT', '/api/channel/', session.root, { id: channelId, priority: 3 });
    const plainId = (await session.call('GET', '/api/user/self', session.plain)).json().data.id;
    const topUp = await session.call('POST', `/api/user/quota/${plainId}`, admin.cookie, { quota: 10 });
    expect(topUp.statusCode, topUp.body).toBe(200);
  });

  async function list(query: string, cookie = session.root): Promise<Paged<AuditLogItem>> {
    const response = await session.call('GET', `/api/audit/${query}`, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }
  const summary = (page: Paged<AuditLogItem>) => page.data.map((row) => `${row.resource}:${row.action}`);

  it('gives root every row, newest first, with changes as an object', async () => {
    const page = await list('');
    expect(page.total_count).toBe(4);
    expect(summary(page)).toEqual(['balance:update', 'channel:update', 'channel:create', 'user:promote']);
    const [balance, update] = page.data;
    expect(balance).toMatchObject({ actor_id: admin.id, actor_name: 'audit_admin', actor_role: 10 });
    expect(update).toMatchObject({
      actor_id: rootId,
      target_id: String(channelId),
      target_name: 'listed',
      changes: { priority: { before: 0, after: 3 } },
    });
    expect(typeof update?.ip).toBe('string');
    expect(update?.request_id).not.toBe('');
  });

  it('filters by resource, action, actor, target and time, and pages', async () => {
    expect(summary(await list('?resource=channel'))).toEqual(['channel:update', 'channel:create']);
    expect(summary(await list('?resource=channel&action=create'))).toEqual(['channel:create']);
    expect(summary(await list(`?actor_id=${admin.id}`))).toEqual(['balance:update']);
    expect(summary(await list(`?target_id=${channelId}&resource=channel`))).toEqual([
      'channel:update',
      'channel:create',
    ]);
    // Empty values are "no filter", as the console sends them.
    expect((await list('?resource=&action=&target_id=')).total_count).toBe(4);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await list(`?start_timestamp=${future}`)).total_count).toBe(0);
    expect((await list(`?end_timestamp=${future}`)).total_count).toBe(4);
    const second = await list('?page=2&size=3');
    expect([second.page, second.size, second.total_count]).toEqual([2, 3, 4]);
    expect(summary(second)).toEqual(['user:promote']);
  });

  it('shows an administrator only its own actions, and refuses it another actor', async () => {
    const own = await list('', admin.cookie);
    expect(own.total_count).toBe(1);
    expect(own.data.every((row) => row.actor_id === admin.id)).toBe(true);
    expect((await list(`?actor_id=${admin.id}`, admin.cookie)).total_count).toBe(1);
    const other = await session.call('GET', `/api/audit/?actor_id=${rootId}`, admin.cookie);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ success: false, message: expect.stringContaining('actor_id') });
  });

  it('refuses a bad filter with a 400 naming it, a visitor with 401 and a common user with 403', async () => {
    for (const [query, field] of [
      ['?resource=planet', 'resource'],
      ['?action=explode', 'action'],
      ['?actor_id=abc', 'actor_id'],
      ['?start_timestamp=-5', 'start_timestamp'],
      [`?target_id=${'x'.repeat(65)}`, 'target_id'],
      ['?order=ip', 'order'],
    ] as const) {
      const response = await session.call('GET', `/api/audit/${query}`, session.root);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect((await session.call('GET', '/api/audit/')).statusCode).toBe(401);
    expect((await session.call('GET', '/api/audit/', session.plain)).statusCode).toBe(403);
  });

  it('reads a filter page by page with a keyset, newest first, for an export', async () => {
    const filter = session.t.services.audit.visibleFilter({ id: rootId, role: 100 }, { resource: 'channel' });
    const first = await session.t.services.audit.listPageAfter(filter, 0, 1);
    const rest = await session.t.services.audit.listPageAfter(filter, first[0]?.id ?? 0, 10);
    expect([...first, ...rest].map((row) => row.action)).toEqual(['update', 'create']);
    expect(await session.t.services.audit.listPageAfter(filter, rest.at(-1)?.id ?? 0, 10)).toEqual([]);
  });

  const exported = (url: string, headers: Record<string, string>) =>
    session.t.app.inject({ method: 'GET', url, headers });

  it('exports what the list shows, as JSON lines and as CSV, to a cookie or an access token', async () => {
    const lines = await exported('/api/audit/export?resource=channel&format=jsonl', { cookie: session.root });
    expect(lines.statusCode, lines.body).toBe(200);
    expect(lines.headers['content-type']).toBe('application/x-ndjson');
    expect(lines.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{8}-\d{6}\.jsonl"$/);
    const rows = lines.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditLogItem);
    expect(rows).toEqual((await list('?resource=channel')).data);

    const token = (await session.call('POST', '/api/user/token', admin.cookie)).json().data as string;
    const csv = await exported('/api/audit/export', { authorization: `Bearer ${token}` });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...cells] = parseCsv(csv.body);
    expect(header?.slice(0, 6)).toEqual(['id', 'created_at', 'actor_id', 'actor_name', 'actor_role', 'resource']);
    // The administrator's own actions only, its changes as JSON text.
    expect(cells.map((cell) => [cell[5], cell[6], cell[3]])).toEqual([['balance', 'update', 'audit_admin']]);
    expect(JSON.parse(cells[0]?.[header?.indexOf('changes') ?? -1] ?? '')).toMatchObject({ quota: {} });
  });

  it('refuses an export of another actor to an administrator, a bad format, a visitor and a common user', async () => {
    const other = await exported(`/api/audit/export?actor_id=${rootId}`, { cookie: admin.cookie });
    expect(other.statusCode).toBe(403);
    expect(other.headers['content-disposition']).toBeUndefined();
    const format = await exported('/api/audit/export?format=xml', { cookie: session.root });
    expect(format.statusCode).toBe(400);
    expect(format.json().message).toContain('format');
    expect((await exported('/api/audit/export', {})).statusCode).toBe(401);
    expect((await exported('/api/audit/export', { cookie: session.plain })).statusCode).toBe(403);
  });

  it('reads an export a page at a time, each page after the last one', async () => {
    const caller = { id: rootId, role: 100 };
    const table = session.t.services.audit.exportRows(caller, { format: 'jsonl' }, 1);
    const pages: number[][] = [];
    for await (const page of table.pages) pages.push(page.map((row) => row.id));
    expect(pages.every((page) => page.length === 1)).toBe(true);
    expect(pages.flat()).toEqual((await list('')).data.map((row) => row.id));
  });
});
