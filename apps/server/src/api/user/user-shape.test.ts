import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape, pagedShape, type Shape, successData } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/**
 * A user as the reference's console reads it (§3.1 users, minus the password): the profile page,
 * the profile drawer, the top-up card, the user table and the user edit dialog. One deliberate
 * difference: `access_token` is not sent back, since only its digest is stored (the token is shown
 * once, when it is made); `has_access_token` says whether there is one, and the reference's
 * profile page then offers to make a new one.
 */
const userShape: Shape = {
  id: 'number',
  username: 'string',
  display_name: 'string',
  role: 'number',
  status: 'number',
  email: 'string',
  avatar_url: 'string',
  oidc_id: 'string',
  github_id: 'string',
  github_id_new: 'number',
  wechat_id: 'string',
  telegram_id: 'number',
  lark_id: 'string',
  quota: 'number',
  used_quota: 'number',
  request_count: 'number',
  group: 'string',
  aff_code: 'string',
  aff_count: 'number',
  aff_quota: 'number',
  aff_history_quota: 'number',
  inviter_id: 'number',
  last_login_time: 'number',
  last_login_ip: 'string',
  created_time: 'number',
};

/** What a sign-in fills (the reference leaves the other fields of its user object empty). */
const signedInShape: Shape = {
  id: 'number',
  username: 'string',
  display_name: 'string',
  role: 'number',
  status: 'number',
  avatar_url: 'string',
};

describe.each(availableDialects)('user routes have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;
  let alice: { id: number; cookie: string };

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    alice = await t.createUser('alice');
    // Non-zero values in the big-integer columns: PostgreSQL hands those back as text unless converted.
    await t.database.db
      .updateTable('users')
      .set({ github_id_new: 987_654_321, telegram_id: 123_456_789_012, quota: 5_000_000_000, used_quota: 7 })
      .where('id', '=', alice.id)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const data = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
    successData(t, method, url, cookie ? { cookie } : { authorization: ROOT_TOKEN }, payload);

  it('GET /api/user/self gives the signed-in user every field the console reads', async () => {
    const self = await data('GET', '/api/user/self', alice.cookie);
    expectShape(self, userShape);
    expect(self).toMatchObject({ github_id_new: 987_654_321, telegram_id: 123_456_789_012, quota: 5_000_000_000 });
  });

  it('GET /api/user/ pages users, and GET /api/user/:id gives one, in the same shape', async () => {
    expectShape(await data('GET', '/api/user/'), pagedShape(userShape));
    expectShape(await data('GET', `/api/user/${alice.id}`), userShape);
  });

  it('POST /api/user/login answers the fields a sign-in fills', async () => {
    const signedIn = await data('POST', '/api/user/login', undefined, { username: 'alice', password: 'password-123' });
    expectShape(signedIn, signedInShape);
  });

  it('POST /api/user/manage answers the new role and status; GET /api/user/aff the invite code', async () => {
    expect(typeof (await data('GET', '/api/user/aff', alice.cookie))).toBe('string');
    await t.createUser('bob');
    expectShape(await data('POST', '/api/user/manage', undefined, { username: 'bob', action: 'disable' }), {
      role: 'number',
      status: 'number',
    });
  });
});
