import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

/** Issue 29 item 4: the admin route edits others; one's own password, group, role and quota are not its business. */
describe.each(availableDialects)('the admin user route on the caller itself on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  let admin: { cookie: string; id: number };
  let adminToken: string;

  async function accessToken(cookie: string): Promise<string> {
    const response = await s.call('POST', '/api/user/token', cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  function withToken(token: string, method: 'GET' | 'PUT', url: string, payload?: object) {
    return s.t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  }

  beforeAll(async () => {
    admin = await createAdmin(s.t, s.root, 'self_adm');
    adminToken = await accessToken(admin.cookie);
  });

  it('refuses an admin changing its own password, group, role or quota with its access token (403)', async () => {
    const before = await s.t.services.userRepository.findById(admin.id);
    for (const change of [{ password: 'new-password-99' }, { group: 'vip' }, { role: 100 }, { quota: 9e14 }]) {
      const response = await withToken(adminToken, 'PUT', '/api/user/', { id: admin.id, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(403);
      const [field] = Object.keys(change);
      expect(response.json().message).toMatch(new RegExp(`^${field}: .*/api/user/self`));
    }
    expect(await s.t.services.userRepository.findById(admin.id)).toEqual(before);
    expect((await withToken(adminToken, 'GET', '/api/user/self')).statusCode).toBe(200);
    await s.t.login('self_adm', 'password-123');
  });

  it('still lets an admin rename itself there, the console sending its unchanged group along', async () => {
    const current = (await s.t.services.userRepository.findById(admin.id))?.group;
    const response = await withToken(adminToken, 'PUT', '/api/user/', {
      id: admin.id,
      display_name: 'Self Admin',
      group: current,
      password: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.display_name).toBe('Self Admin');
  });

  it('refuses root setting its own password or group there too', async () => {
    const rootId = (await s.t.services.userRepository.findByUsername('root'))?.id;
    for (const change of [{ password: 'new-password-99' }, { group: 'vip' }]) {
      const response = await s.call('PUT', '/api/user/', s.root, { id: rootId, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(403);
    }
    expect((await s.call('GET', '/api/user/self', s.root)).json().data.group).toBe('default');
  });

  it('revokes the access token and the sessions of a user whose password an administrator sets', async () => {
    const user = await s.t.createUser('pw_target');
    const token = await accessToken(user.cookie);
    expect((await withToken(token, 'GET', '/api/user/self')).statusCode).toBe(200);
    const set = await s.call('PUT', '/api/user/', s.root, { id: user.id, password: 'chosen-by-root-1' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.has_access_token).toBe(false);
    expect((await withToken(token, 'GET', '/api/user/self')).statusCode).toBe(401);
    expect((await s.call('GET', '/api/user/self', user.cookie)).statusCode).toBe(401);
    await s.t.login('pw_target', 'chosen-by-root-1');
  });
});
