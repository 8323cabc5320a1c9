import { MAX_QUOTA } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

type Method = 'GET' | 'POST' | 'PUT';
interface Token {
  id: number;
  key: string;
  user_id: number;
  [field: string]: unknown;
}
const MASKED = /^[A-Za-z0-9]{4}…[A-Za-z0-9]{4}$/;

describe.each(availableDialects)('API keys across roles on %s', (dialect) => {
  let t: TestApp;
  let root: { id: number; cookie: string };
  let admin: { id: number; cookie: string };
  let peer: { id: number; cookie: string };
  let alice: { id: number; cookie: string };
  let bob: { id: number; cookie: string };

  async function promote(username: string): Promise<{ id: number; cookie: string }> {
    const { id } = await t.createUser(username);
    const promoted = await call('POST', '/api/user/manage', root.cookie, { username, action: 'promote' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    return { id, cookie: await t.login(username, 'password-123') };
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const rootRow = await t.services.userRepository.findByUsername('root');
    root = { id: rootRow?.id ?? 0, cookie: await t.login('root', ROOT_PASSWORD) };
    admin = await promote('admin1');
    peer = await promote('admin2');
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
  });
  afterAll(() => t?.close());

  function call(method: Method, url: string, cookie: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  async function create(cookie: string, name: string): Promise<Token> {
    const response = await call('POST', '/api/token/', cookie, { name });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  const storedRow = (id: number) =>
    t.database.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it("refuses an admin the steal-and-return of root's key, and the billing of root with their own", async () => {
    const rootKey = await create(root.cookie, 'root key');
    const adminKey = await create(admin.cookie, 'admin key');
    const before = await Promise.all([storedRow(rootKey.id), storedRow(adminKey.id)]);

    const attempts: Array<[string, unknown]> = [
      ['/api/token/admin', { id: rootKey.id, user_id: admin.id }],
      ['/api/token/admin', { id: rootKey.id, name: 'renamed' }],
      ['/api/token/admin?status_only=1', { id: rootKey.id, status: 2 }],
      ['/api/token/admin', { id: adminKey.id, user_id: root.id }],
      ['/api/token/admin', { id: adminKey.id, remain_quota: 5 }],
    ];
    for (const [url, payload] of attempts) {
      const response = await call('PUT', url, admin.cookie, payload);
      expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(403);
      expect(response.json().success).toBe(false);
      expect(response.body).not.toContain(rootKey.key);
    }
    expect(await Promise.all([storedRow(rootKey.id), storedRow(adminKey.id)])).toEqual(before);
    expect((await call('GET', `/api/token/${rootKey.id}`, admin.cookie)).statusCode).toBe(404);
    // Root still holds its key in full.
    expect((await call('GET', `/api/token/${rootKey.id}`, root.cookie)).json().data.key).toBe(rootKey.key);
  });

  it("refuses an admin a common user's key given to root or to another admin, and another admin's key", async () => {
    const aliceKey = await create(alice.cookie, 'alice key');
    const peerKey = await create(peer.cookie, 'peer key');
    for (const [id, userId] of [
      [aliceKey.id, root.id],
      [aliceKey.id, peer.id],
      [aliceKey.id, admin.id],
      [peerKey.id, alice.id],
    ]) {
      const response = await call('PUT', '/api/token/admin', admin.cookie, { id, user_id: userId });
      expect(response.statusCode, `${id} → ${userId}`).toBe(403);
    }
    expect(
      (await call('PUT', '/api/token/admin?status_only=1', admin.cookie, { id: peerKey.id, status: 2 })).statusCode,
    ).toBe(403);
    expect(await storedRow(aliceKey.id)).toMatchObject({ user_id: alice.id, status: 1 });
    expect(await storedRow(peerKey.id)).toMatchObject({ user_id: peer.id, status: 1 });
  });

  it('lists for an admin only the keys of users below them, always masked', async () => {
    const rootKey = await create(root.cookie, 'listed root');
    const aliceKey = await create(alice.cookie, 'listed alice');
    const all = (await call('GET', '/api/token/admin/search?size=100', admin.cookie)).json().data;
    const owners = new Set(all.data.map((row: Token) => row.user_id));
    expect(owners.has(alice.id)).toBe(true);
    for (const higher of [root.id, admin.id, peer.id]) expect(owners.has(higher)).toBe(false);
    for (const row of all.data) expect(row.key).toMatch(MASKED);
    for (const query of [`token_id=${rootKey.id}`, `user_id=${root.id}`, `user_id=${peer.id}`]) {
      const page = (await call('GET', `/api/token/admin/search?${query}`, admin.cookie)).json().data;
      expect(page, query).toMatchObject({ total_count: 0, data: [] });
    }
    const rootView = (await call('GET', '/api/token/admin/search?size=100', root.cookie)).json().data;
    const rootOwners = new Set(rootView.data.map((row: Token) => row.user_id));
    for (const everyone of [root.id, admin.id, peer.id, alice.id]) expect(rootOwners.has(everyone)).toBe(true);
    for (const row of rootView.data) expect(row.key).toMatch(MASKED);
    expect(JSON.stringify(rootView)).not.toContain(aliceKey.key);
  });

  it("still lets an admin manage a common user's key and root an admin's, masked, the owner seeing it whole", async () => {
    const aliceKey = await create(alice.cookie, 'managed');
    const moved = await call('PUT', '/api/token/admin', admin.cookie, {
      id: aliceKey.id,
      user_id: bob.id,
      name: 'moved',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ user_id: bob.id, name: 'moved', owner_name: 'bob' });
    expect(moved.json().data.key).toMatch(MASKED);
    const disabled = await call('PUT', '/api/token/admin?status_only=1', admin.cookie, { id: aliceKey.id, status: 2 });
    expect(disabled.json().data).toMatchObject({ status: 2 });
    expect(disabled.json().data.key).toMatch(MASKED);
    expect((await call('GET', `/api/token/${aliceKey.id}`, bob.cookie)).json().data.key).toBe(aliceKey.key);

    const adminKey = await create(admin.cookie, 'by root');
    const byRoot = await call('PUT', '/api/token/admin', root.cookie, { id: adminKey.id, name: 'root renamed it' });
    expect(byRoot.statusCode, byRoot.body).toBe(200);
    expect(byRoot.json().data).toMatchObject({ name: 'root renamed it', user_id: admin.id });
    expect(byRoot.json().data.key).toMatch(MASKED);
    const toPeer = await call('PUT', '/api/token/admin', root.cookie, { id: adminKey.id, user_id: peer.id });
    expect(toPeer.statusCode, toPeer.body).toBe(200);
    const own = await call('GET', `/api/token/${adminKey.id}`, peer.cookie);
    expect(own.json().data.key).toBe(adminKey.key);
  });

  it('refuses a remain_quota past the documented maximum with a 400 naming it, and accepts the maximum', async () => {
    const token = await create(alice.cookie, 'capped');
    const attempts: Array<[Method, string, string, unknown]> = [
      ['POST', '/api/token/', alice.cookie, { name: 'huge', remain_quota: MAX_QUOTA + 1 }],
      ['POST', '/api/token/', alice.cookie, { name: 'huge', remain_quota: 2 ** 53 }],
      ['PUT', '/api/token/', alice.cookie, { id: token.id, remain_quota: MAX_QUOTA + 1 }],
      ['PUT', '/api/token/admin', root.cookie, { id: token.id, remain_quota: 2 ** 53 }],
    ];
    for (const [method, url, cookie, payload] of attempts) {
      const response = await call(method, url, cookie, payload);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json().message).toContain('remain_quota');
    }
    expect(Number((await storedRow(token.id)).remain_quota)).toBe(0);
    const atMost = await call('PUT', '/api/token/', alice.cookie, { id: token.id, remain_quota: MAX_QUOTA });
    expect(atMost.json().data.remain_quota).toBe(MAX_QUOTA);
    expect(Number((await storedRow(token.id)).remain_quota)).toBe(MAX_QUOTA);
  });
});
