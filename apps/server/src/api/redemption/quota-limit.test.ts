import { LogType, MAX_QUOTA } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('redemption codes against self-minting and the quota maximum on %s', (dialect) => {
  let t: TestApp;
  let root: { id: number; cookie: string };
  let admin: { id: number; cookie: string };

  function call(method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  async function create(cookie: string, name: string, quota: number): Promise<string> {
    const response = await call('POST', '/api/redemption/', cookie, { name, quota, count: 1 });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data[0];
  }

  async function quotaOf(userId: number): Promise<number> {
    const user = await t.database.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirst();
    return Number(user?.quota);
  }

  const codeNamed = (name: string) =>
    t.database.db.selectFrom('redemptions').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

  const topUpLogs = async (userId: number) =>
    (
      await t.database.db
        .selectFrom('logs')
        .select('id')
        .where('user_id', '=', userId)
        .where('type', '=', LogType.topup)
        .execute()
    ).length;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const rootRow = await t.services.userRepository.findByUsername('root');
    root = { id: rootRow?.id ?? 0, cookie: await t.login('root', ROOT_PASSWORD) };
    const { id } = await t.createUser('minter');
    await call('POST', '/api/user/manage', root.cookie, { username: 'minter', action: 'promote' });
    admin = { id, cookie: await t.login('minter', 'password-123') };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses to let anyone redeem a code they created, and leaves the code usable by others', async () => {
    for (const [who, caller] of [
      ['admin', admin],
      ['root', root],
    ] as const) {
      const name = `Self ${who}`;
      const key = await create(caller.cookie, name, 1000);
      const before = await quotaOf(caller.id);
      const response = await call('POST', '/api/user/topup', caller.cookie, { key });
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({ success: false });
      expect(response.json().message).toMatch(/^key: .*created yourself/);
      expect(await quotaOf(caller.id)).toBe(before);
      expect(await topUpLogs(caller.id)).toBe(0);
      expect(await codeNamed(name)).toMatchObject({ status: 1, redeemed_user_id: 0 });
    }
    const other = await t.createUser('other');
    const redeemed = await call('POST', '/api/user/topup', other.cookie, {
      key: await create(admin.cookie, 'For other', 7),
    });
    expect(redeemed.json().data).toBe(7);
  });

  it('refuses a code quota past the maximum with a 400 naming quota, and stores nothing', async () => {
    for (const quota of [2 ** 53, MAX_QUOTA + 1, Number.MAX_SAFE_INTEGER]) {
      const response = await call('POST', '/api/redemption/', admin.cookie, { name: 'Mint', quota, count: 1 });
      expect(response.statusCode, String(quota)).toBe(400);
      expect(response.json().message).toContain('quota');
    }
    expect(await t.database.db.selectFrom('redemptions').select('id').where('name', '=', 'Mint').execute()).toEqual([]);
    await create(admin.cookie, 'Editable', 1);
    const { id } = await codeNamed('Editable');
    const edit = await call('PUT', '/api/redemption/', admin.cookie, { id, quota: 2 ** 53 });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toContain('quota');
    expect(Number((await codeNamed('Editable')).quota)).toBe(1);
  });

  it('refuses a redeem that would take a balance past the maximum, and writes nothing', async () => {
    const user = await t.createUser('nearly_full');
    const credited = await call('POST', `/api/user/quota/${user.id}`, root.cookie, { quota: MAX_QUOTA - 10 });
    expect(credited.statusCode, credited.body).toBe(200);
    const key = await create(admin.cookie, 'Overflow', 11);
    const response = await call('POST', '/api/user/topup', user.cookie, { key });
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toContain('maximum');
    expect(await quotaOf(user.id)).toBe(MAX_QUOTA - 10);
    expect(await codeNamed('Overflow')).toMatchObject({ status: 1, redeemed_user_id: 0, redeemed_time: 0 });
    expect(await topUpLogs(user.id)).toBe(0);

    const exact = await call('POST', '/api/user/topup', user.cookie, { key: await create(admin.cookie, 'Exact', 10) });
    expect(exact.json().data).toBe(10);
    expect(await quotaOf(user.id)).toBe(MAX_QUOTA);
  });

  it('lets only one of two concurrent redeems through when both together would pass the maximum', async () => {
    const user = await t.createUser('racer');
    const half = MAX_QUOTA / 2 + 1;
    const keys = [await create(admin.cookie, 'Half A', half), await create(admin.cookie, 'Half B', half)];
    const responses = await Promise.all(keys.map((key) => call('POST', '/api/user/topup', user.cookie, { key })));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await quotaOf(user.id)).toBe(half);
    expect(await topUpLogs(user.id)).toBe(1);
    const codes = await Promise.all(['Half A', 'Half B'].map(codeNamed));
    expect(codes.map((code) => code.status).sort()).toEqual([1, 3]);
  });
});
