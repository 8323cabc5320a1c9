import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { hashTokenKey } from '../../domain/token-keys.js';
import { nowSeconds } from '../../platform/clock.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(availableDialects)('API keys on %s', (dialect) => {
  let t: TestApp;
  let alice: { id: number; cookie: string };
  let bob: { id: number; cookie: string };

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
  });
  afterAll(() => t?.close());

  function call(method: Method, url: string, cookie?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  const storedRow = (id: number) =>
    t.database.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  const countTokens = async (userId: number) =>
    (await t.database.db.selectFrom('tokens').select('id').where('user_id', '=', userId).execute()).length;

  async function create(cookie: string, body: Record<string, unknown>) {
    const response = await call('POST', '/api/token/', cookie, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: number; key: string; status: number; [field: string]: unknown };
  }

  it('refuses anonymous callers with 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/token/'],
      ['GET', '/api/token/1'],
      ['GET', '/api/token/playground'],
      ['POST', '/api/token/'],
      ['PUT', '/api/token/'],
      ['DELETE', '/api/token/1'],
    ] as const) {
      expect((await call(method, url)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('creates a key and gives it to its owner in full, without sk- (reference §1.7), in the list and the detail', async () => {
    const created = await create(alice.cookie, { name: 'first', remain_quota: 1000 });
    expect(created.key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(created).toMatchObject({ name: 'first', status: 1, expired_time: -1, remain_quota: 1000, used_quota: 0 });
    expect(created).toMatchObject({ unlimited_quota: false, group: '', backup_group: '', user_id: alice.id });
    const body = created.key;

    const list = (await call('GET', '/api/token/', alice.cookie)).json().data;
    expect(list).toMatchObject({ page: 1, size: 10, total_count: 1 });
    expect(list.data[0].key).toBe(body);

    const single = (await call('GET', `/api/token/${created.id}/`, alice.cookie)).json().data;
    expect(single.key).toBe(created.key);

    const row = await storedRow(created.id);
    expect(row.key_hash).toBe(hashTokenKey(body));
    expect(row.key_cipher).not.toContain(body);
    expect((await t.services.tokens.repo.findByKeyHash(hashTokenKey(body)))?.id).toBe(created.id);
    expect(JSON.stringify(single)).not.toContain(row.key_cipher);
  });

  it("answers 404 for another user's token and leaves it alone", async () => {
    const token = await create(alice.cookie, { name: 'private' });
    expect((await call('GET', `/api/token/${token.id}`, bob.cookie)).statusCode).toBe(404);
    expect((await call('PUT', '/api/token/', bob.cookie, { id: token.id, name: 'stolen' })).statusCode).toBe(404);
    const statusOnly = await call('PUT', '/api/token/?status_only=1', bob.cookie, { id: token.id, status: 2 });
    expect(statusOnly.statusCode).toBe(404);
    expect((await call('DELETE', `/api/token/${token.id}`, bob.cookie)).statusCode).toBe(404);
    const row = await storedRow(token.id);
    expect(row).toMatchObject({ name: 'private', status: 1, deleted_at: null });
    expect((await call('GET', '/api/token/?keyword=priv', bob.cookie)).json().data.total_count).toBe(0);
  });

  it('refuses bad input with a 400 naming the field and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'name'],
      [{ name: 'x'.repeat(31) }, 'name'],
      [{ name: 'ok', remain_quota: -1 }, 'remain_quota'],
      [{ name: 'ok', remain_quota: 1.5 }, 'remain_quota'],
      [{ name: 'ok', expired_time: nowSeconds() - 60 }, 'expired_time'],
      [{ name: 'ok', expired_time: -5 }, 'expired_time'],
      [{ name: 'ok', group: 'no-such-group' }, 'group'],
      [{ name: 'ok', group: 'default', backup_group: 'default' }, 'backup_group'],
      [{ name: 'ok', unlimited_quota: 'yes' }, 'unlimited_quota'],
      [
        { name: 'ok', setting: { heartbeat: { enabled: true, timeout_seconds: 10 } } },
        'setting.heartbeat.timeout_seconds',
      ],
      [
        { name: 'ok', setting: { heartbeat: { enabled: true, timeout_seconds: 91 } } },
        'setting.heartbeat.timeout_seconds',
      ],
      [
        { name: 'ok', setting: { limits: { limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/33'] } } } },
        'setting.limits.limits_ip_setting.whitelist',
      ],
      [
        { name: 'ok', setting: { limits: { limits_ip_setting: { enabled: true, whitelist: ['not-an-ip'] } } } },
        'setting.limits.limits_ip_setting.whitelist',
      ],
      [{ name: 'ok', setting: { limits: { rpm: -1 } } }, 'setting.limits.rpm'],
    ];
    const before = await countTokens(bob.id);
    for (const [payload, field] of cases) {
      const response = await call('POST', '/api/token/', bob.cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ success: false });
      expect(response.json().message, JSON.stringify(payload)).toContain(field);
    }
    expect(await countTokens(bob.id)).toBe(before);

    const token = await create(bob.cookie, { name: 'valid' });
    const update = await call('PUT', '/api/token/', bob.cookie, { id: token.id, name: 'y'.repeat(31) });
    expect(update.statusCode).toBe(400);
    expect(update.json().message).toContain('name');
    expect((await storedRow(token.id)).name).toBe('valid');
  });

  it('stores the setting as JSON with defaults filled in and returns it parsed', async () => {
    const token = await create(alice.cookie, {
      name: 'limited',
      setting: {
        heartbeat: { enabled: true, timeout_seconds: 60 },
        limits: { limits_ip_setting: { enabled: true, whitelist: [' 10.0.0.0/8 ', '::1', '2001:db8::/32'] }, rpm: 30 },
      },
    });
    const expected = {
      heartbeat: { enabled: true, timeout_seconds: 60 },
      chat_cache: true,
      limits: {
        limit_model_setting: { enabled: false, models: [] },
        limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8', '::1', '2001:db8::/32'] },
        rpm: 30,
        concurrency: 0,
        tpm: 0,
      },
      budgets: [],
      fallbacks: {},
    };
    expect(token.setting).toEqual(expected);
    const stored = (await storedRow(token.id)).setting;
    expect(JSON.parse(stored)).toEqual(expected);
    expect(t.services.tokens.parseSetting(stored)).toEqual(expected);

    const models = { limits: { limit_model_setting: { enabled: true, models: ['gpt-4o'] } } };
    const updated = (await call('PUT', '/api/token/', alice.cookie, { id: token.id, setting: models })).json().data;
    expect(updated.setting.limits.limit_model_setting).toEqual({ enabled: true, models: ['gpt-4o'] });
    expect(updated.setting.heartbeat).toEqual({ enabled: false, timeout_seconds: 30 });
    expect(updated.key).toBe((await call('GET', `/api/token/${token.id}`, alice.cookie)).json().data.key);
    expect(updated.key).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('refuses a setting key it does not know, naming it, on create and update; a stored one still loads', async () => {
    const misspelt = { limits: { limit_model_setting: { enabled: true, modles: ['gpt-4o'] } } };
    const before = await countTokens(bob.id);
    const created = await call('POST', '/api/token/', bob.cookie, { name: 'typo', setting: misspelt });
    expect(created.statusCode).toBe(400);
    expect(created.json().message).toBe('setting.limits.limit_model_setting.modles is not a known field');
    expect(await countTokens(bob.id)).toBe(before);

    const token = await create(bob.cookie, { name: 'strict' });
    for (const setting of [misspelt, { heartbeat: { enabled: false, timeout: 30 } }, { limit: {} }]) {
      const updated = await call('PUT', '/api/token/', bob.cookie, { id: token.id, setting });
      expect(updated.statusCode, JSON.stringify(setting)).toBe(400);
      expect(updated.json().message, JSON.stringify(setting)).toMatch(/^setting\.\S+ is not a known field$/);
    }
    expect(JSON.parse((await storedRow(token.id)).setting).limits.limit_model_setting.enabled).toBe(false);

    // What the reference console sends back with a key: its billing tag is accepted and dropped.
    const reference = {
      heartbeat: { enabled: false, timeout_seconds: 30 },
      limits: {
        limit_model_setting: { enabled: true, models: ['gpt-4o'] },
        limits_ip_setting: { enabled: false, whitelist: [] },
      },
      billing_tag: '',
    };
    const accepted = await call('PUT', '/api/token/', bob.cookie, { id: token.id, setting: reference });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data.setting.limits.limit_model_setting).toEqual({ enabled: true, models: ['gpt-4o'] });
    expect(accepted.json().data.setting).not.toHaveProperty('billing_tag');

    // Written by an older version: reads are not strict, and the limits it holds still apply.
    const legacy = { ...reference, billing_tag: 'vip', retired_field: 1 };
    await t.database.db
      .updateTable('tokens')
      .set({ setting: JSON.stringify(legacy) })
      .where('id', '=', token.id)
      .execute();
    const loaded = await call('GET', `/api/token/${token.id}`, bob.cookie);
    expect(loaded.statusCode).toBe(200);
    expect(loaded.json().data.setting.limits.limit_model_setting).toEqual({ enabled: true, models: ['gpt-4o'] });
  });

  it('updates own tokens; status_only changes the status and nothing else', async () => {
    const token = await create(alice.cookie, { name: 'editable', remain_quota: 5 });
    await t.database.db.updateTable('tokens').set({ used_quota: 7 }).where('id', '=', token.id).execute();
    const updated = await call('PUT', '/api/token/', alice.cookie, {
      id: token.id,
      name: 'renamed',
      remain_quota: 50,
      unlimited_quota: true,
      used_quota: 0,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      name: 'renamed',
      remain_quota: 50,
      unlimited_quota: true,
      used_quota: 7,
    });

    const disabled = await call('PUT', '/api/token/?status_only=1', alice.cookie, {
      id: token.id,
      status: 2,
      name: 'ignored',
    });
    expect(disabled.json().data).toMatchObject({ status: 2, name: 'renamed' });
    expect(await storedRow(token.id)).toMatchObject({ status: 2, name: 'renamed' });
    const enabled = await call('PUT', '/api/token/?status_only=true', alice.cookie, { id: token.id, status: 1 });
    expect(enabled.json().data.status).toBe(1);

    const badStatus = await call('PUT', '/api/token/?status_only=1', alice.cookie, { id: token.id, status: 7 });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().message).toContain('status');
    const systemStatus = await call('PUT', '/api/token/', alice.cookie, { id: token.id, status: 3 });
    expect(systemStatus.statusCode).toBe(400);
    expect((await storedRow(token.id)).status).toBe(1);
  });

  it('refuses to re-enable an exhausted token until it has quota again', async () => {
    const token = await create(alice.cookie, { name: 'empty', remain_quota: 0 });
    await call('PUT', '/api/token/?status_only=1', alice.cookie, { id: token.id, status: 2 });
    const refused = await call('PUT', '/api/token/?status_only=1', alice.cookie, { id: token.id, status: 1 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^status: .*no quota left/);
    expect((await storedRow(token.id)).status).toBe(2);

    const refilled = await call('PUT', '/api/token/', alice.cookie, { id: token.id, remain_quota: 10, status: 1 });
    expect(refilled.statusCode).toBe(200);
    expect(refilled.json().data).toMatchObject({ status: 1, remain_quota: 10 });
  });

  it('refuses to re-enable an expired token until its expiry is moved', async () => {
    const token = await create(alice.cookie, { name: 'dated', expired_time: nowSeconds() + 3600, remain_quota: 100 });
    // What the relay does when it meets a key past its expiry.
    await t.database.db
      .updateTable('tokens')
      .set({ expired_time: nowSeconds() - 10, status: 3 })
      .where('id', '=', token.id)
      .execute();
    const refused = await call('PUT', '/api/token/?status_only=1', alice.cookie, { id: token.id, status: 1 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^status: .*expired/);
    // The whole token sent back unchanged (status 3 included) is still a valid edit.
    const renamed = await call('PUT', '/api/token/', alice.cookie, { id: token.id, name: 'dated2', status: 3 });
    expect(renamed.json().data).toMatchObject({ name: 'dated2', status: 3 });

    const later = nowSeconds() + 7200;
    const revived = await call('PUT', '/api/token/', alice.cookie, { id: token.id, expired_time: later, status: 1 });
    expect(revived.statusCode).toBe(200);
    expect(revived.json().data).toMatchObject({ status: 1, expired_time: later });
  });

  it('soft deletes a token so its key no longer resolves', async () => {
    const token = await create(alice.cookie, { name: 'doomed' });
    const body = token.key;
    expect((await call('DELETE', `/api/token/${token.id}`, alice.cookie)).statusCode).toBe(200);
    expect((await call('GET', `/api/token/${token.id}`, alice.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/token/${token.id}`, alice.cookie)).statusCode).toBe(404);
    const list = (await call('GET', '/api/token/?keyword=doomed', alice.cookie)).json().data;
    expect(list.total_count).toBe(0);
    expect((await storedRow(token.id)).deleted_at).not.toBeNull();
    expect(await t.services.tokens.repo.findByKeyHash(hashTokenKey(body))).toBeUndefined();
  });

  it('tells the relay about every write', async () => {
    const seen: number[] = [];
    const stop = t.services.changes.on('tokens', (change) => {
      seen.push(change.id);
    });
    try {
      const token = await create(alice.cookie, { name: 'watched' });
      await call('PUT', '/api/token/', alice.cookie, { id: token.id, name: 'watched2' });
      await call('PUT', '/api/token/?status_only=1', alice.cookie, { id: token.id, status: 2 });
      await call('DELETE', `/api/token/${token.id}`, alice.cookie);
      expect(seen).toEqual([token.id, token.id, token.id, token.id]);
    } finally {
      stop();
    }
  });
});
