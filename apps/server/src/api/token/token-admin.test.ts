import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Token {
  id: number;
  key: string;
  user_id: number;
  [field: string]: unknown;
}

describe.each(availableDialects)('API keys: groups, playground and administration on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let alice: { id: number; cookie: string };
  let bob: { id: number; cookie: string };
  let staffUser: { id: number; cookie: string };

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
    staffUser = await t.createUser('staffer');
    for (const [symbol, isPublic] of [
      ['staff', false],
      ['open', true],
      ['off', true],
    ] as const) {
      const created = await call('POST', '/api/user_group/', root, { symbol, name: symbol, public: isPublic });
      expect(created.statusCode, created.body).toBe(200);
      if (symbol === 'off') await call('PUT', `/api/user_group/enable/${created.json().data.id}`, root);
    }
    await call('PUT', '/api/user/', root, { id: staffUser.id, group: 'staff', display_name: 'Very Important' });
  });
  afterAll(() => t?.close());

  function call(method: Method, url: string, cookie?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  async function create(cookie: string, body: Record<string, unknown>): Promise<Token> {
    const response = await call('POST', '/api/token/', cookie, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  it('lets a user pick public groups and their own, but no other group', async () => {
    const hidden = await call('POST', '/api/token/', alice.cookie, { name: 'sneaky', group: 'staff' });
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().message).toMatch(/^group: .*staff.*not public/);
    const disabled = await call('POST', '/api/token/', alice.cookie, { name: 'off', backup_group: 'off' });
    expect(disabled.statusCode).toBe(400);
    expect(disabled.json().message).toMatch(/^backup_group: .*disabled/);
    expect((await call('GET', '/api/token/', alice.cookie)).json().data.total_count).toBe(0);

    const open = await create(alice.cookie, { name: 'open', group: 'open', backup_group: 'default' });
    expect(open).toMatchObject({ group: 'open', backup_group: 'default' });
    const own = await create(staffUser.cookie, { name: 'mine', group: 'staff', backup_group: 'open' });
    expect(own).toMatchObject({ group: 'staff', backup_group: 'open' });

    const moved = await call('PUT', '/api/token/', alice.cookie, { id: open.id, group: 'staff' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toContain('group');
    const same = await call('PUT', '/api/token/', alice.cookie, {
      id: open.id,
      group: 'default',
      backup_group: 'default',
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toContain('backup_group');
    const cleared = await call('PUT', '/api/token/', alice.cookie, { id: open.id, group: '', backup_group: '' });
    expect(cleared.json().data).toMatchObject({ group: '', backup_group: '' });
  });

  it('creates the playground token once and hands out the same key afterwards', async () => {
    const first = await call('GET', '/api/token/playground', bob.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatch(/^[A-Za-z0-9]{48}$/);
    const second = await call('GET', '/api/token/playground/', bob.cookie);
    expect(second.json().data).toBe(first.json().data);
    const list = (await call('GET', '/api/token/?keyword=sys_playground', bob.cookie)).json().data;
    expect(list.total_count).toBe(1);
    expect(list.data[0]).toMatchObject({ name: 'sys_playground', unlimited_quota: true, expired_time: -1, status: 1 });
    const full = (await call('GET', `/api/token/${list.data[0].id}`, bob.cookie)).json().data;
    expect(full.key).toBe(first.json().data);
    expect((await call('GET', '/api/token/playground', alice.cookie)).json().data).not.toBe(first.json().data);
  });

  it('refuses the admin routes to anonymous callers (401) and plain users (403)', async () => {
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', '/api/token/admin/search'],
      ['PUT', '/api/token/admin', { id: 1, name: 'x' }],
      ['PUT', '/api/token/admin/', { id: 1, name: 'x' }],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
      const forbidden = await call(method, url, alice.cookie, payload);
      expect(forbidden.statusCode, `${method} ${url}`).toBe(403);
      expect(forbidden.json().success).toBe(false);
    }
  });

  it('searches everyone’s tokens with owner names and masked keys', async () => {
    const token = await create(staffUser.cookie, { name: 'searchable' });
    const byUser = (await call('GET', `/api/token/admin/search?user_id=${staffUser.id}&size=5`, root)).json().data;
    expect(byUser).toMatchObject({ page: 1, size: 5, total_count: 2 });
    for (const row of byUser.data) {
      expect(row).toMatchObject({ user_id: staffUser.id, owner_name: 'Very Important' });
      expect(row.key).toMatch(/^[A-Za-z0-9]{4}…[A-Za-z0-9]{4}$/);
    }
    const byId = (await call('GET', `/api/token/admin/search?token_id=${token.id}&user_id=`, root)).json().data;
    expect(byId.data.map((row: Token) => row.id)).toEqual([token.id]);
    const byName = (await call('GET', '/api/token/admin/search?keyword=SEARCH&order=-name', root)).json().data;
    expect(byName.data.map((row: Token) => row.id)).toEqual([token.id]);
    const everyone = (await call('GET', '/api/token/admin/search?size=100', root)).json().data;
    expect(new Set(everyone.data.map((row: Token) => row.user_id))).toEqual(new Set([alice.id, bob.id, staffUser.id]));
    expect(everyone.data.find((row: Token) => row.user_id === bob.id).owner_name).toBe('bob');

    const badQuery = await call('GET', '/api/token/admin/search?user_id=abc', root);
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().message).toContain('user_id');
    const badOrder = await call('GET', '/api/token/admin/search?order=key_hash', root);
    expect(badOrder.statusCode).toBe(400);
    expect(badOrder.json().message).toContain('order');
  });

  it('lets an admin edit and transfer any token, checking the new owner’s groups', async () => {
    const token = await create(staffUser.cookie, { name: 'transfer me', group: 'staff' });
    const wrongGroup = await call('PUT', '/api/token/admin', root, { id: token.id, user_id: bob.id });
    expect(wrongGroup.statusCode).toBe(400);
    expect(wrongGroup.json().message).toContain('group');
    const noUser = await call('PUT', '/api/token/admin', root, { id: token.id, user_id: 999_999, group: '' });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json().message).toContain('user_id');
    const missing = await call('PUT', '/api/token/admin', root, { id: 999_999, name: 'x' });
    expect(missing.statusCode).toBe(404);
    const row = await t.database.db.selectFrom('tokens').selectAll().where('id', '=', token.id).executeTakeFirst();
    expect(row).toMatchObject({ user_id: staffUser.id, group: 'staff' });

    const moved = await call('PUT', '/api/token/admin/', root, {
      id: token.id,
      user_id: bob.id,
      group: 'open',
      name: 'by admin',
      remain_quota: 123,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ user_id: bob.id, owner_name: 'bob', name: 'by admin', group: 'open' });
    expect(moved.json().data.remain_quota).toBe(123);
    expect((await call('GET', `/api/token/${token.id}`, bob.cookie)).statusCode).toBe(200);
    expect((await call('GET', `/api/token/${token.id}`, staffUser.cookie)).statusCode).toBe(404);

    const disabled = await call('PUT', '/api/token/admin?status_only=1', root, { id: token.id, status: 2, name: 'no' });
    expect(disabled.json().data).toMatchObject({ status: 2, name: 'by admin' });
  });
});
