import { LogType } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('redeeming codes with POST /api/user/topup on %s', (dialect) => {
  let t: TestApp;
  let root: string;

  function call(method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  async function create(name: string, quota: number, count = 1): Promise<string[]> {
    const response = await call('POST', '/api/redemption/', root, { name, quota, count });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  async function quotaOf(userId: number): Promise<number> {
    const user = await t.database.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(user.quota);
  }

  async function topUpLogs(userId: number) {
    return t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', LogType.topup)
      .execute();
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('credits the quota once, marks the code redeemed by the caller and writes one top-up log', async () => {
    const user = await t.createUser('redeemer');
    const [key] = await create('Once', 12_345);
    const before = await quotaOf(user.id);
    const response = await call('POST', '/api/user/topup', user.cookie, { key });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, message: '', data: 12_345 });
    expect(await quotaOf(user.id)).toBe(before + 12_345);
    const code = await t.database.db
      .selectFrom('redemptions')
      .selectAll()
      .where('name', '=', 'Once')
      .executeTakeFirstOrThrow();
    expect(code.status).toBe(3);
    expect(Number(code.redeemed_time)).toBeGreaterThan(0);
    expect(code.redeemed_user_id).toBe(user.id);
    expect(code.user_id).toBe(1);
    const logs = await topUpLogs(user.id);
    expect(logs).toHaveLength(1);
    expect(Number(logs[0]?.quota)).toBe(12_345);
    expect(logs[0]?.content).toContain('兑换码');
    expect(logs[0]?.content).not.toContain(key);
  });

  it('lets exactly one of 20 concurrent redemptions of one code through', async () => {
    const user = await t.createUser('racer');
    const [key] = await create('Race', 5_000);
    const before = await quotaOf(user.id);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/api/user/topup', user.cookie, { key })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(await quotaOf(user.id)).toBe(before + 5_000);
    expect(await topUpLogs(user.id)).toHaveLength(1);
  });

  it('lets exactly one of several users win a code they all race for', async () => {
    const users = await Promise.all(
      ['racer1', 'racer2', 'racer3', 'racer4', 'racer5'].map((name) => t.createUser(name)),
    );
    const [key] = await create('Shared race', 700);
    const before = await Promise.all(users.map((user) => quotaOf(user.id)));
    const responses = await Promise.all(
      users.flatMap((user) => [1, 2, 3, 4].map(() => call('POST', '/api/user/topup', user.cookie, { key }))),
    );
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    const after = await Promise.all(users.map((user) => quotaOf(user.id)));
    const gains = after.map((quota, index) => quota - (before[index] as number));
    expect(gains.sort((left, right) => left - right)).toEqual([0, 0, 0, 0, 700]);
  });

  it('refuses unknown, used and disabled codes with a clear 4xx and changes nothing', async () => {
    const user = await t.createUser('refused');
    const [used] = await create('Used', 10);
    const [disabled] = await create('Disabled', 10);
    const other = await t.createUser('other');
    expect((await call('POST', '/api/user/topup', other.cookie, { key: used })).statusCode).toBe(200);
    const code = await t.database.db
      .selectFrom('redemptions')
      .select('id')
      .where('name', '=', 'Disabled')
      .executeTakeFirstOrThrow();
    await call('PUT', '/api/redemption/?status_only=1', root, { id: code.id, status: 2 });
    const before = await quotaOf(user.id);

    const cases: Array<[unknown, number, string]> = [
      [{ key: 'f'.repeat(32) }, 404, 'does not exist'],
      [{ key: used }, 409, 'already been used'],
      [{ key: disabled }, 409, 'disabled'],
      [{ key: '' }, 400, 'key'],
      [{}, 400, 'key'],
      [{ key: 12 }, 400, 'key'],
    ];
    for (const [body, status, message] of cases) {
      const response = await call('POST', '/api/user/topup', user.cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().success).toBe(false);
      expect(response.json().message).toContain(message);
      expect(response.json().message).not.toContain(String(used));
    }
    expect(await quotaOf(user.id)).toBe(before);
    expect(await topUpLogs(user.id)).toHaveLength(0);
    const stillDisabled = await call('GET', `/api/redemption/${code.id}`, root);
    expect(stillDisabled.json().data.status).toBe(2);
  });

  it('accepts a code typed in capitals or with spaces around it', async () => {
    const user = await t.createUser('typist');
    const [key] = await create('Typed', 3);
    const response = await call('POST', '/api/user/topup', user.cookie, { key: `  ${key?.toUpperCase()} ` });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/user/topup', payload: { key: 'x' } });
    expect(response.statusCode).toBe(401);
  });

  it('moves the user up into the promotion group their recharge reaches', async () => {
    const group = await call('POST', '/api/user_group/', root, {
      ...{ symbol: 'promo', name: 'Promoted', ratio: 0.9, api_rate: 600, public: false },
      ...{ promotion: true, min: 1, max: 0 },
    });
    expect(group.statusCode, group.body).toBe(200);
    const user = await t.createUser('climber');
    const [small] = await create('Small', 10);
    await call('POST', '/api/user/topup', user.cookie, { key: small });
    const groupOf = async () =>
      (await t.database.db.selectFrom('users').select('group').where('id', '=', user.id).executeTakeFirstOrThrow())
        .group;
    expect(await groupOf()).toBe('default');
    // QuotaPerUnit is 500 000 quota per dollar; the group starts at one dollar.
    const [big] = await create('Big', 500_000);
    await call('POST', '/api/user/topup', user.cookie, { key: big });
    expect(await groupOf()).toBe('promo');
  });
});
