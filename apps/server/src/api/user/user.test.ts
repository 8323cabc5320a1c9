import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('user administration on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let admin: string;
  let adminId: number;
  let plain: string;
  let plainId: number;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    ({ cookie: plain, id: plainId } = await t.createUser('plain'));
    ({ id: adminId } = await t.createUser('admin1'));
    await call('POST', '/api/user/manage', root, { username: 'admin1', action: 'promote' });
    admin = await t.login('admin1', 'password-123');
  });
  afterAll(() => t?.close());

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  it('refuses every admin route to anonymous callers (401) and to plain users (403)', async () => {
    const routes: Array<[Parameters<typeof call>[0], string, unknown?]> = [
      ['GET', '/api/user/'],
      ['GET', `/api/user/${plainId}`],
      ['POST', '/api/user/', { username: 'x1234', password: 'password-123' }],
      ['PUT', '/api/user/', { id: plainId, display_name: 'x' }],
      ['DELETE', `/api/user/${plainId}`],
      ['POST', '/api/user/manage', { username: 'plain', action: 'disable' }],
      ['POST', `/api/user/quota/${plainId}`, { quota: 10 }],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
      const forbidden = await call(method, url, plain, payload);
      expect(forbidden.statusCode, `${method} ${url}`).toBe(403);
      expect(forbidden.json().success).toBe(false);
    }
  });

  it('takes only numeric ids on /api/user/:id, so other self-service paths are a plain 404', async () => {
    const missing = await call('GET', '/api/user/no-such-path', plain);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false });
    expect((await call('GET', `/api/user/${plainId}`, plain)).statusCode).toBe(403);
  });

  it('lists users paged, searched and sorted, without password hashes', async () => {
    for (const name of ['list_a', 'list_b', 'list_c']) await t.createUser(name);
    const page = (await call('GET', '/api/user/?page=1&size=2&keyword=list_&order=username', admin)).json().data;
    expect(page).toMatchObject({ page: 1, size: 2, total_count: 3 });
    expect(page.data.map((user: { username: string }) => user.username)).toEqual(['list_a', 'list_b']);
    expect(page.data[0]).not.toHaveProperty('password');
    const second = (await call('GET', '/api/user/?page=2&size=2&keyword=LIST_&order=-username', admin)).json().data;
    expect(second.data.map((user: { username: string }) => user.username)).toEqual(['list_a']);
    const byId = (await call('GET', `/api/user/?keyword=${plainId}`, admin)).json().data;
    expect(byId.data.some((user: { id: number }) => user.id === plainId)).toBe(true);
  });

  it('refuses bad paging: unknown sort field and oversized pages', async () => {
    const badOrder = await call('GET', '/api/user/?order=password', admin);
    expect(badOrder.statusCode).toBe(400);
    expect(badOrder.json().message).toContain("'password'");
    const tooBig = await call('GET', '/api/user/?size=101', admin);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toContain('size');
  });

  it('lets an admin read a common user but not an equal or higher one', async () => {
    expect((await call('GET', `/api/user/${plainId}`, admin)).json().data.username).toBe('plain');
    const { id: otherAdminId } = await t.createUser('admin2');
    await call('POST', '/api/user/manage', root, { username: 'admin2', action: 'promote' });
    expect((await call('GET', `/api/user/${otherAdminId}`, admin)).statusCode).toBe(403);
    const rootId = (await t.services.userRepository.findByUsername('root'))?.id;
    expect((await call('GET', `/api/user/${rootId}`, admin)).statusCode).toBe(403);
    expect((await call('GET', `/api/user/${otherAdminId}`, root)).statusCode).toBe(200);
    expect((await call('GET', '/api/user/999999', root)).statusCode).toBe(404);
    // Only numeric ids reach the route; anything else is an unknown path.
    expect((await call('GET', '/api/user/abc', root)).statusCode).toBe(404);
  });

  it('creates users as common users in a real group', async () => {
    const created = await call('POST', '/api/user/', admin, {
      username: 'made1',
      password: 'password-123',
      display_name: 'Made',
      role: 100,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().data).toMatchObject({ username: 'made1', display_name: 'Made', role: 1, group: 'default' });
    const badGroup = await call('POST', '/api/user/', admin, {
      username: 'made2',
      password: 'password-123',
      group: 'nope',
    });
    expect(badGroup.statusCode).toBe(400);
    expect(badGroup.json().message).toContain('group');
    const duplicate = await call('POST', '/api/user/', admin, { username: 'made1', password: 'password-123' });
    expect(duplicate.statusCode).toBe(409);
    const short = await call('POST', '/api/user/', admin, { username: 'made3', password: '1234567' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('password');
  });

  it('updates a user; an empty password keeps the old one', async () => {
    const { id } = await t.createUser('upd1');
    const response = await call('PUT', '/api/user/', admin, {
      id,
      display_name: 'Updated',
      group: 'vip',
      password: '',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ display_name: 'Updated', group: 'vip' });
    await t.login('upd1', 'password-123');
    const renamed = await call('PUT', '/api/user/', admin, { id, username: 'plain' });
    expect(renamed.statusCode).toBe(409);
    const rootId = (await t.services.userRepository.findByUsername('root'))?.id;
    expect((await call('PUT', '/api/user/', admin, { id: rootId, display_name: 'pwned' })).statusCode).toBe(403);
    expect((await call('PUT', '/api/user/', admin, { id: adminId, display_name: 'me' })).statusCode).toBe(200);
  });

  it('manages users: disable, enable, promote (root only), demote, delete', async () => {
    await t.createUser('managed');
    const disabled = await call('POST', '/api/user/manage', admin, { username: 'managed', action: 'disable' });
    expect(disabled.json().data).toEqual({ role: 1, status: 2 });
    expect(
      (await call('POST', '/api/user/manage', admin, { username: 'managed', action: 'enable' })).json().data,
    ).toEqual({ role: 1, status: 1 });
    expect((await call('POST', '/api/user/manage', admin, { username: 'managed', action: 'promote' })).statusCode).toBe(
      403,
    );
    expect(
      (await call('POST', '/api/user/manage', root, { username: 'managed', action: 'promote' })).json().data.role,
    ).toBe(10);
    // Now an equal of admin1: admin1 may no longer touch it.
    expect((await call('POST', '/api/user/manage', admin, { username: 'managed', action: 'disable' })).statusCode).toBe(
      403,
    );
    expect(
      (await call('POST', '/api/user/manage', root, { username: 'managed', action: 'demote' })).json().data.role,
    ).toBe(1);
    expect((await call('POST', '/api/user/manage', root, { username: 'root', action: 'disable' })).statusCode).toBe(
      403,
    );
    expect((await call('POST', '/api/user/manage', admin, { username: 'managed', action: 'explode' })).statusCode).toBe(
      400,
    );
    expect((await call('POST', '/api/user/manage', admin, { username: 'ghost', action: 'disable' })).statusCode).toBe(
      404,
    );
    expect((await call('POST', '/api/user/manage', admin, { username: 'managed', action: 'delete' })).statusCode).toBe(
      200,
    );
    expect(
      (await call('POST', '/api/user/login', undefined, { username: 'managed', password: 'password-123' })).statusCode,
    ).toBe(401);
    // The name is free again after deletion.
    await t.createUser('managed');
  });

  it('deletes by id with the same role rules', async () => {
    const { id } = await t.createUser('del1');
    expect((await call('DELETE', `/api/user/${adminId}`, admin)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/user/${id}`, admin)).statusCode).toBe(200);
    expect((await call('GET', `/api/user/${id}`, admin)).statusCode).toBe(404);
  });

  it('adds and subtracts quota atomically, with a manage log, never below zero', async () => {
    const { id, cookie } = await t.createUser('rich');
    const added = await call('POST', `/api/user/quota/${id}`, admin, { quota: 1000, remark: 'welcome' });
    expect(added.statusCode).toBe(200);
    expect(added.json().data.quota).toBe(1000);
    expect((await call('POST', `/api/user/quota/${id}`, admin, { quota: -400 })).json().data.quota).toBe(600);
    const overdraw = await call('POST', `/api/user/quota/${id}`, admin, { quota: -601 });
    expect(overdraw.statusCode).toBe(400);
    expect(overdraw.json().message).toContain('quota');
    expect((await call('POST', `/api/user/quota/${id}`, admin, { quota: 0 })).statusCode).toBe(400);
    expect((await call('POST', `/api/user/quota/${id}`, admin, { quota: 1.5 })).statusCode).toBe(400);
    expect((await call('GET', '/api/user/self', cookie)).json().data.quota).toBe(600);
    const logs = await t.database.db.selectFrom('logs').selectAll().where('user_id', '=', id).orderBy('id').execute();
    expect(logs.map((log) => [log.type, Number(log.quota)])).toEqual([
      [3, 1000],
      [3, -400],
    ]);
    expect(logs[0]?.content).toContain('welcome');
    // Who did it: the operator's id, and its address (issue 29).
    expect(logs[0]?.content).toContain(`#${adminId}`);
    expect(logs[0]?.source_ip).not.toBe('');
    // Admins cannot raise their own (equal-role) balance; root can.
    expect((await call('POST', `/api/user/quota/${adminId}`, admin, { quota: 5 })).statusCode).toBe(403);
    expect((await call('POST', `/api/user/quota/${adminId}`, root, { quota: 5 })).statusCode).toBe(200);
  });

  it('never lets an admin view or act on another admin or on root (403), and changes nothing', async () => {
    const { id: peerId } = await t.createUser('peer_adm');
    await call('POST', '/api/user/manage', root, { username: 'peer_adm', action: 'promote' });
    const rootId = (await t.services.userRepository.findByUsername('root'))?.id ?? 0;
    const before = await Promise.all([peerId, rootId].map((id) => t.services.userRepository.findById(id)));
    for (const [username, id] of [
      ['peer_adm', peerId],
      ['root', rootId],
    ] as const) {
      const attempts: Array<[Parameters<typeof call>[0], string, unknown?]> = [
        ['GET', `/api/user/${id}`],
        ['PUT', '/api/user/', { id, display_name: 'hijacked', group: 'vip', password: 'new-password-1' }],
        ['POST', `/api/user/quota/${id}`, { quota: 100 }],
        ['POST', `/api/user/quota/${id}`, { quota: -1 }],
        ['DELETE', `/api/user/${id}`],
        ...(['disable', 'enable', 'delete', 'promote', 'demote'] as const).map(
          (action): [Parameters<typeof call>[0], string, unknown] => ['POST', '/api/user/manage', { username, action }],
        ),
      ];
      for (const [method, url, payload] of attempts) {
        const response = await call(method, url, admin, payload);
        expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)} on ${username}`).toBe(403);
        expect(response.json().success).toBe(false);
      }
    }
    const after = await Promise.all([peerId, rootId].map((id) => t.services.userRepository.findById(id)));
    expect(after).toEqual(before);
    // Nothing was written to the logs on their behalf either.
    const logs = await t.database.db.selectFrom('logs').select('id').where('user_id', 'in', [peerId, rootId]).execute();
    expect(logs).toEqual([]);
  });

  it('keeps root untouchable even by root, while root manages admins', async () => {
    const rootId = (await t.services.userRepository.findByUsername('root'))?.id ?? 0;
    for (const action of ['disable', 'delete', 'demote', 'promote'] as const) {
      const response = await call('POST', '/api/user/manage', root, { username: 'root', action });
      expect(response.statusCode, action).toBe(403);
    }
    expect((await call('DELETE', `/api/user/${rootId}`, root)).statusCode).toBe(403);
    expect((await t.services.userRepository.findById(rootId))?.status).toBe(1);

    await t.createUser('adm_ops');
    await call('POST', '/api/user/manage', root, { username: 'adm_ops', action: 'promote' });
    const opsSession = await t.login('adm_ops', 'password-123');
    expect((await call('GET', '/api/user/', opsSession)).statusCode).toBe(200);
    expect(
      (await call('POST', '/api/user/manage', root, { username: 'adm_ops', action: 'disable' })).json().data,
    ).toEqual({ role: 10, status: 2 });
    // A disabled admin loses the admin API at once: the live session ends, and they cannot sign in.
    expect((await call('GET', '/api/user/', opsSession)).statusCode).toBe(401);
    const signIn = await call('POST', '/api/user/login', undefined, { username: 'adm_ops', password: 'password-123' });
    expect(signIn.statusCode).toBe(401);
    await call('POST', '/api/user/manage', root, { username: 'adm_ops', action: 'enable' });
    const enabledSession = await t.login('adm_ops', 'password-123');
    expect((await call('GET', '/api/user/', enabledSession)).statusCode).toBe(200);
    expect(
      (await call('POST', '/api/user/manage', root, { username: 'adm_ops', action: 'demote' })).json().data,
    ).toEqual({ role: 1, status: 1 });
    expect((await call('GET', '/api/user/', enabledSession)).statusCode).toBe(403);
  });

  it('lets only root make or unmake an admin', async () => {
    await t.createUser('hopeful');
    const promote = await call('POST', '/api/user/manage', admin, { username: 'hopeful', action: 'promote' });
    expect(promote.statusCode).toBe(403);
    expect((await t.services.userRepository.findByUsername('hopeful'))?.role).toBe(1);
    await call('POST', '/api/user/manage', root, { username: 'hopeful', action: 'promote' });
    expect((await call('POST', '/api/user/manage', admin, { username: 'hopeful', action: 'demote' })).statusCode).toBe(
      403,
    );
    expect((await t.services.userRepository.findByUsername('hopeful'))?.role).toBe(10);
    expect((await call('POST', '/api/user/manage', root, { username: 'hopeful', action: 'promote' })).statusCode).toBe(
      400,
    );
    expect((await call('POST', '/api/user/manage', root, { username: 'hopeful', action: 'demote' })).statusCode).toBe(
      200,
    );
    expect((await call('POST', '/api/user/manage', root, { username: 'hopeful', action: 'demote' })).statusCode).toBe(
      400,
    );
  });

  it('answers bad input with a 400 that names the field', async () => {
    const cases: Array<[Parameters<typeof call>[0], string, unknown, string]> = [
      ['POST', '/api/user/', { password: 'password-123' }, 'username'],
      ['POST', '/api/user/', { username: 'ab', password: 'password-123' }, 'username'],
      ['POST', '/api/user/', { username: 'x'.repeat(13), password: 'password-123' }, 'username'],
      ['POST', '/api/user/', { username: 'nopass' }, 'password'],
      ['POST', '/api/user/', { username: 'shortpw', password: 'short' }, 'password'],
      [
        'POST',
        '/api/user/',
        { username: 'longname', password: 'password-123', display_name: 'x'.repeat(21) },
        'display_name',
      ],
      ['POST', '/api/user/', { username: 'grouped', password: 'password-123', group: '' }, 'group'],
      ['PUT', '/api/user/', { display_name: 'x' }, 'id'],
      ['PUT', '/api/user/', { id: plainId, password: 'short' }, 'password'],
      ['PUT', '/api/user/', { id: plainId, group: 'missing' }, 'group'],
      ['POST', '/api/user/manage', { username: 'plain' }, 'action'],
      ['POST', '/api/user/manage', { action: 'disable' }, 'username'],
      ['POST', `/api/user/quota/${plainId}`, { quota: 'ten' }, 'quota'],
      ['POST', `/api/user/quota/${plainId}`, {}, 'quota'],
      ['POST', `/api/user/quota/${plainId}`, { quota: 5, remark: 'x'.repeat(201) }, 'remark'],
      ['POST', '/api/user/quota/abc', { quota: 5 }, 'id'],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await call(method, url, admin, payload);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json().message, `${method} ${url}`).toContain(field);
    }
    expect(Number((await t.services.userRepository.findById(plainId))?.quota)).toBe(0);
    expect(await t.services.userRepository.findByUsername('shortpw')).toBeUndefined();
  });

  it('keeps concurrent quota changes exact', async () => {
    const { id } = await t.createUser('busy');
    await Promise.all(Array.from({ length: 20 }, () => call('POST', `/api/user/quota/${id}`, root, { quota: 7 })));
    const results = await Promise.all(
      Array.from({ length: 30 }, () => call('POST', `/api/user/quota/${id}`, root, { quota: -10 })),
    );
    const succeeded = results.filter((response) => response.statusCode === 200).length;
    expect(succeeded).toBe(14);
    const user = await t.services.userRepository.findById(id);
    expect(Number(user?.quota)).toBe(140 - succeeded * 10);
  });
});
