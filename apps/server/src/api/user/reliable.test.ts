import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/api/channel-support.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/**
 * Issue 14 item 3: role 3, the reference's "reliable user" (trusted internal staff). Any
 * administrator grants it with `set_reliable` on a user it outranks and takes it back with
 * `demote`; it stays below admin, so it opens no admin route and admins still manage it.
 */
describe.each(availableDialects)('reliable users on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    await t.createUser('boss');
    await call('POST', '/api/user/manage', root, { username: 'boss', action: 'promote' });
    admin = await t.login('boss', 'password-123');
  });
  afterAll(() => t?.close());

  const call: ReturnType<typeof caller> = (...args) => caller(t)(...args);
  const manage = (cookie: string, username: string, action: string) =>
    call('POST', '/api/user/manage', cookie, { username, action });

  it('lets an admin make a common user reliable; every user view shows role 3', async () => {
    const { id, cookie } = await t.createUser('trusted1');
    const answer = await manage(admin, 'trusted1', 'set_reliable');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ success: true, data: { role: 3, status: 1 } });
    expect((await call('GET', `/api/user/${id}`, admin)).json().data.role).toBe(3);
    const listed = (await call('GET', '/api/user/?keyword=trusted1', admin)).json().data.data;
    expect(listed).toEqual([expect.objectContaining({ username: 'trusted1', role: 3 })]);
    // The session issued before the change still works, and the owner sees the new role.
    expect((await call('GET', '/api/user/self', cookie)).json().data.role).toBe(3);
    const again = await manage(admin, 'trusted1', 'set_reliable');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('reliable');
  });

  it('keeps a reliable user below admin: no admin route, no managing anyone', async () => {
    const { cookie } = await t.createUser('trusted2');
    await t.createUser('bystander');
    await manage(admin, 'trusted2', 'set_reliable');
    const session = await t.login('trusted2', 'password-123');
    for (const each of [cookie, session]) {
      expect((await call('GET', '/api/user/', each)).statusCode).toBe(403);
      expect((await manage(each, 'bystander', 'set_reliable')).statusCode).toBe(403);
      expect((await manage(each, 'bystander', 'disable')).statusCode).toBe(403);
    }
    expect((await t.services.userRepository.findByUsername('bystander'))?.role).toBe(1);
  });

  it('lets an admin still manage a reliable user, and revoke the role with demote', async () => {
    const { id } = await t.createUser('trusted3');
    await manage(admin, 'trusted3', 'set_reliable');
    expect((await manage(admin, 'trusted3', 'disable')).json().data).toEqual({ role: 3, status: 2 });
    expect((await manage(admin, 'trusted3', 'enable')).json().data).toEqual({ role: 3, status: 1 });
    expect((await call('POST', `/api/user/quota/${id}`, admin, { quota: 50 })).statusCode).toBe(200);
    expect((await call('PUT', '/api/user/', admin, { id, display_name: 'Trusted' })).statusCode).toBe(200);
    const demoted = await manage(admin, 'trusted3', 'demote');
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(demoted.json().data).toEqual({ role: 1, status: 1 });
    expect((await call('GET', `/api/user/${id}`, admin)).json().data.role).toBe(1);
  });

  it('follows the rank rule: an admin cannot re-role an admin or root; root can turn an admin reliable', async () => {
    await t.createUser('boss2');
    await manage(root, 'boss2', 'promote');
    expect((await manage(admin, 'boss2', 'set_reliable')).statusCode).toBe(403);
    expect((await manage(admin, 'root', 'set_reliable')).statusCode).toBe(403);
    expect((await manage(root, 'root', 'set_reliable')).statusCode).toBe(403);
    expect((await t.services.userRepository.findByUsername('root'))?.role).toBe(100);
    const boss2 = await t.login('boss2', 'password-123');
    expect((await call('GET', '/api/user/', boss2)).statusCode).toBe(200);
    expect((await manage(root, 'boss2', 'set_reliable')).json().data).toEqual({ role: 3, status: 1 });
    // It lost the admin screens at once, and admins now outrank it.
    expect((await call('GET', '/api/user/', boss2)).statusCode).toBe(403);
    expect((await manage(admin, 'boss2', 'disable')).statusCode).toBe(200);
  });

  it('refuses set_reliable to anonymous callers and plain users', async () => {
    const { cookie } = await t.createUser('plain9');
    expect(
      (await call('POST', '/api/user/manage', undefined, { username: 'plain9', action: 'set_reliable' })).statusCode,
    ).toBe(401);
    expect((await manage(cookie, 'plain9', 'set_reliable')).statusCode).toBe(403);
    expect((await t.services.userRepository.findByUsername('plain9'))?.role).toBe(1);
  });
});
