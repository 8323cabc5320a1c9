import type { RedemptionView } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('redemption codes API on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let plain: string;

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  async function create(name: string, quota: number, count: number): Promise<string[]> {
    const response = await call('POST', '/api/redemption/', root, { name, quota, count });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  async function find(name: string): Promise<RedemptionView[]> {
    const response = await call('GET', `/api/redemption/?keyword=${encodeURIComponent(name)}&size=100`, root);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.data;
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    plain = (await t.createUser('plain')).cookie;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a batch of distinct 32-hex codes and lists them for administrators', async () => {
    const keys = await create('Welcome', 1000, 5);
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    const listed = await find('welc');
    expect(listed.map((code) => code.key).sort()).toEqual([...keys].sort());
    for (const code of listed) {
      expect(code).toMatchObject({ name: 'Welcome', quota: 1000, status: 1, redeemed_time: 0, redeemed_user_id: 0 });
      expect(code.user_id).toBe(1);
      expect(code.created_time).toBeGreaterThan(0);
    }
    const one = await call('GET', `/api/redemption/${listed[0]?.id}`, root);
    expect(one.json().data).toEqual(listed[0]);
  });

  it('keeps only a digest and a sealed copy of each code in the database', async () => {
    const [key] = await create('Stored', 5, 1);
    const rows = await t.database.db.selectFrom('redemptions').selectAll().where('name', '=', 'Stored').execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('pages, finds by id and orders by allowed fields only', async () => {
    await create('Paging', 1, 3);
    await create('Paging', 9, 1);
    const page = await call('GET', '/api/redemption/?keyword=paging&size=2&order=-quota', root);
    const body = page.json().data;
    expect(body.total_count).toBe(4);
    expect(body.data.map((code: RedemptionView) => code.quota)).toEqual([9, 1]);
    const byId = await call('GET', `/api/redemption/?keyword=${body.data[0].id}`, root);
    expect(byId.json().data.data.map((code: RedemptionView) => code.id)).toContain(body.data[0].id);
    const badOrder = await call('GET', '/api/redemption/?order=key_hash', root);
    expect(badOrder.statusCode).toBe(400);
    expect(badOrder.json().message).toContain('order');
  });

  it.each([
    [{ name: '', quota: 1, count: 1 }, 'name'],
    [{ name: 'x'.repeat(21), quota: 1, count: 1 }, 'name'],
    [{ name: 'ok', quota: -1, count: 1 }, 'quota'],
    [{ name: 'ok', quota: 1.5, count: 1 }, 'quota'],
    [{ name: 'ok', quota: 1, count: 0 }, 'count'],
    [{ name: 'ok', quota: 1, count: 101 }, 'count'],
    [{ name: 'ok', quota: 1 }, 'count'],
  ])('refuses %j with a 400 naming %s, and writes nothing', async (body, field) => {
    const before = await t.database.db.selectFrom('redemptions').select('id').execute();
    const response = await call('POST', '/api/redemption/', root, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().message).toContain(field);
    expect(await t.database.db.selectFrom('redemptions').select('id').execute()).toHaveLength(before.length);
  });

  it('accepts the largest batch and a zero quota', async () => {
    expect(await create('Max batch', 0, 100)).toHaveLength(100);
  });

  it('edits name and quota, and enables or disables with status_only', async () => {
    const [code] = await find('Welcome');
    const id = code?.id as number;
    const edited = await call('PUT', '/api/redemption/', root, { id, name: 'Renamed', quota: 2000 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ id, name: 'Renamed', quota: 2000, status: 1 });
    const disabled = await call('PUT', '/api/redemption/?status_only=1', root, { id, status: 2 });
    expect(disabled.json().data).toMatchObject({ id, name: 'Renamed', quota: 2000, status: 2 });
    const again = await call('PUT', '/api/redemption/?status_only=1', root, { id, status: 2 });
    expect(again.statusCode).toBe(200);
    const redeemed = await call('PUT', '/api/redemption/?status_only=1', root, { id, status: 3 });
    expect(redeemed.statusCode).toBe(400);
    expect(redeemed.json().message).toContain('status');
    const badName = await call('PUT', '/api/redemption/', root, { id, name: 'y'.repeat(21) });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toContain('name');
    const missing = await call('PUT', '/api/redemption/', root, { id: 999_999, name: 'nobody' });
    expect(missing.statusCode).toBe(404);
  });

  it('keeps the quota of a redeemed code and does not re-enable it, but lets it be renamed', async () => {
    const [key] = await create('Spent', 77, 1);
    expect((await call('POST', '/api/user/topup', plain, { key })).statusCode).toBe(200);
    const [code] = await find('Spent');
    const id = code?.id as number;
    expect(code?.status).toBe(3);
    const requote = await call('PUT', '/api/redemption/', root, { id, quota: 1 });
    expect(requote.statusCode).toBe(409);
    const enable = await call('PUT', '/api/redemption/?status_only=1', root, { id, status: 1 });
    expect(enable.statusCode).toBe(409);
    const rename = await call('PUT', '/api/redemption/', root, { id, name: 'Spent!' });
    expect(rename.json().data).toMatchObject({ name: 'Spent!', quota: 77, status: 3 });
  });

  it('filters by status, names the redeemer, and refuses an unknown status with a 400', async () => {
    const keys = await create('Filter', 5, 3);
    const codes = await find('Filter');
    const [disabled] = codes;
    await call('PUT', '/api/redemption/?status_only=1', root, { id: disabled?.id, status: 2 });
    expect((await call('POST', '/api/user/topup', plain, { key: keys[1] })).statusCode).toBe(200);
    const plainId = (
      await t.database.db.selectFrom('users').select('id').where('username', '=', 'plain').executeTakeFirstOrThrow()
    ).id;

    const byStatus = async (status: number | string) => {
      const response = await call('GET', `/api/redemption/?keyword=filter&status=${status}&size=100`, root);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.data as RedemptionView[];
    };
    expect((await byStatus(2)).map((code) => code.id)).toEqual([disabled?.id]);
    const redeemed = await byStatus(3);
    expect(redeemed).toHaveLength(1);
    expect(redeemed[0]).toMatchObject({ status: 3, redeemed_user_id: plainId, redeemed_username: 'plain' });
    expect(redeemed[0]?.redeemed_time).toBeGreaterThan(0);
    expect(await byStatus(1)).toHaveLength(1);
    expect(await byStatus(0)).toHaveLength(3);
    expect((await byStatus(1))[0]?.redeemed_username).toBe('');
    const one = await call('GET', `/api/redemption/${redeemed[0]?.id}`, root);
    expect(one.json().data.redeemed_username).toBe('plain');

    for (const bad of ['4', '-1', 'x', '1.5']) {
      const response = await call('GET', `/api/redemption/?status=${bad}`, root);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().message, bad).toContain('status');
    }
  });

  it('deletes a code for good', async () => {
    await create('Doomed', 1, 1);
    const [code] = await find('Doomed');
    expect((await call('DELETE', `/api/redemption/${code?.id}`, root)).statusCode).toBe(200);
    expect((await call('GET', `/api/redemption/${code?.id}`, root)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/redemption/${code?.id}`, root)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/redemption/abc', root)).statusCode).toBe(400);
  });

  it('refuses every administrator route to a plain user with 403', async () => {
    const [code] = await find('Paging');
    const attempts = [
      call('GET', '/api/redemption/', plain),
      call('GET', `/api/redemption/${code?.id}`, plain),
      call('POST', '/api/redemption/', plain, { name: 'mine', quota: 1_000_000, count: 1 }),
      call('PUT', '/api/redemption/', plain, { id: code?.id, quota: 1_000_000 }),
      call('PUT', '/api/redemption/?status_only=1', plain, { id: code?.id, status: 2 }),
      call('DELETE', `/api/redemption/${code?.id}`, plain),
    ];
    for (const response of await Promise.all(attempts)) expect(response.statusCode).toBe(403);
    expect((await call('GET', `/api/redemption/${code?.id}`, root)).json().data).toEqual(code);
    expect(await find('mine')).toEqual([]);
  });

  it('needs a signed-in user at all', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/redemption/' });
    expect(response.statusCode).toBe(401);
  });
});
