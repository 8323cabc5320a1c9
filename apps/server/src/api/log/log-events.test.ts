import { LogType, logEventOf } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/**
 * Issue 31 item 2: the rows the server writes about an account keep One Hub's text in `content`
 * and carry the same fact in `metadata` (`event` and its fields), which the console words in the
 * reader's language.
 */
describe.each(availableDialects)('structured log events on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let rootId: number;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    rootId = (await call('GET', '/api/user/self', root)).json().data.id;
    expect((await call('PUT', '/api/option/', root, { key: 'QuotaForNewUser', value: '1000' })).statusCode).toBe(200);
    expect(
      (await call('PUT', '/api/option/', root, { key: 'DisplayInCurrencyEnabled', value: 'false' })).statusCode,
    ).toBe(200);
  });
  afterAll(() => t?.close());

  function call(method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  /** The user's own log list as the console reads it, oldest first. */
  async function ownLogs(cookie: string) {
    const response = await call('GET', '/api/log/self?page=1&size=50', cookie);
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json().data.data as Array<{ type: number; content: string; metadata: unknown }>;
    return rows.reverse();
  }

  it('records the registration gift, an administrator change and a redemption with their events', async () => {
    const user = await t.createUser('events-user');
    const change = await call('POST', `/api/user/quota/${user.id}`, root, { quota: -200, remark: 'refund #12' });
    expect(change.statusCode, change.body).toBe(200);
    const minted = await call('POST', '/api/redemption/', root, { name: 'Events', quota: 5000, count: 1 });
    expect(minted.statusCode, minted.body).toBe(200);
    const redeemed = await call('POST', '/api/user/topup', user.cookie, { key: minted.json().data[0] });
    expect(redeemed.statusCode, redeemed.body).toBe(200);

    const rows = await ownLogs(user.cookie);
    expect(rows.map((row) => [row.type, row.content])).toEqual([
      [LogType.system, '新用户注册赠送 1000 点额度'],
      [LogType.manage, `管理员增减用户额度 -200 点额度, 操作者 #${rootId}, 备注: refund #12`],
      [LogType.topup, '通过兑换码充值 5000 点额度'],
    ]);
    expect(rows.map((row) => logEventOf(row.metadata))).toEqual([
      { event: 'signup_gift', quota: 1000 },
      { event: 'admin_quota', quota: -200, operator_id: rootId, remark: 'refund #12' },
      { event: 'redemption', quota: 5000 },
    ]);
  });

  it('leaves out the remark of an administrator change made without one', async () => {
    const user = await t.createUser('events-plain');
    expect((await call('POST', `/api/user/quota/${user.id}`, root, { quota: 300 })).statusCode).toBe(200);
    const rows = await ownLogs(user.cookie);
    expect(rows.at(-1)?.content).toBe(`管理员增减用户额度 300 点额度, 操作者 #${rootId}`);
    expect(rows.at(-1)?.metadata).toEqual({ event: 'admin_quota', quota: 300, operator_id: rootId });
  });
});
