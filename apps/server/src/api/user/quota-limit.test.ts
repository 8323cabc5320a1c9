import { MAX_QUOTA } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('quota adjustments against the quota maximum on %s', (dialect) => {
  let t: TestApp;
  let root: string;

  function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
    return t.app.inject({ method, url, headers: { cookie: root }, ...(payload ? { payload: payload as object } : {}) });
  }

  async function quotaOf(userId: number): Promise<number> {
    const user = await t.database.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirst();
    return Number(user?.quota);
  }

  const manageLogs = async (userId: number) =>
    (await t.database.db.selectFrom('logs').select('id').where('user_id', '=', userId).execute()).length;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(() => t?.close());

  it('refuses an adjustment past the maximum with a 400 naming quota, and changes nothing', async () => {
    const { id } = await t.createUser('whale');
    for (const quota of [2 ** 53, -(2 ** 53), MAX_QUOTA + 1, Number.MAX_SAFE_INTEGER]) {
      const response = await call('POST', `/api/user/quota/${id}`, { quota });
      expect(response.statusCode, String(quota)).toBe(400);
      expect(response.json().message).toContain('quota');
    }
    expect(await quotaOf(id)).toBe(0);
    expect(await manageLogs(id)).toBe(0);
  });

  it('fills a balance up to the maximum exactly, then refuses one more without a log', async () => {
    const { id } = await t.createUser('full');
    const filled = await call('POST', `/api/user/quota/${id}`, { quota: MAX_QUOTA });
    expect(filled.statusCode, filled.body).toBe(200);
    expect(filled.json().data.quota).toBe(MAX_QUOTA);
    const over = await call('POST', `/api/user/quota/${id}`, { quota: 1 });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toMatch(/^quota: .*maximum/);
    expect(await quotaOf(id)).toBe(MAX_QUOTA);
    expect(await manageLogs(id)).toBe(1);
    expect((await call('POST', `/api/user/quota/${id}`, { quota: -MAX_QUOTA })).json().data.quota).toBe(0);
  });

  it('lets only one of two concurrent additions through when both together would pass the maximum', async () => {
    const { id } = await t.createUser('twice');
    const half = MAX_QUOTA / 2 + 1;
    const responses = await Promise.all([1, 2].map(() => call('POST', `/api/user/quota/${id}`, { quota: half })));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 400]);
    expect(await quotaOf(id)).toBe(half);
    expect(await manageLogs(id)).toBe(1);
  });

  it('refuses new-user and invite gifts past the maximum', async () => {
    for (const key of ['QuotaForNewUser', 'QuotaForInviter', 'QuotaForInvitee']) {
      const response = await call('PUT', '/api/option/', { key, value: String(MAX_QUOTA + 1) });
      expect(response.statusCode, key).toBe(400);
      expect(response.json().message).toContain(key);
      expect(t.services.options.get(key as 'QuotaForNewUser')).toBe('0');
    }
  });
});
