import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/api/channel-support.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

type Token = { id: number; setting: Record<string, unknown> };

/**
 * Issue 35 item 5: a key's `setting.billing_tag`, as in the reference, is a label that reliable
 * users (role 3) and above set and see; for anyone below it is neither stored from their writes
 * nor returned, and their edits keep the tag an administrator gave the key.
 */
describe.each(availableDialects)('billing tags of keys on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let staff: string;
  let plain: { id: number; cookie: string };

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    await t.createUser('staffer');
    expect(
      (await call('POST', '/api/user/manage', root, { username: 'staffer', action: 'set_reliable' })).statusCode,
    ).toBe(200);
    staff = await t.login('staffer', 'password-123');
    plain = await t.createUser('plainuser');
  });
  afterAll(() => t?.close());

  const call: ReturnType<typeof caller> = (...args) => caller(t)(...args);
  const storedSetting = async (id: number) =>
    JSON.parse(
      (await t.database.db.selectFrom('tokens').select('setting').where('id', '=', id).executeTakeFirstOrThrow())
        .setting,
    ) as Record<string, unknown>;
  const ok = async (response: Promise<{ statusCode: number; body: string; json(): unknown }>) => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as { data: unknown }).data;
  };
  const listed = async (cookie: string, id: number) =>
    ((await ok(call('GET', '/api/token/?size=100', cookie))) as { data: Token[] }).data.find((row) => row.id === id);

  it('stores and returns the tag of a reliable user, in the answer, the list and the detail', async () => {
    const created = (await ok(
      call('POST', '/api/token/', staff, { name: 'tagged', setting: { billing_tag: ' research ' } }),
    )) as Token;
    expect(created.setting.billing_tag).toBe('research');
    expect(await storedSetting(created.id)).toMatchObject({ billing_tag: 'research' });
    expect((await listed(staff, created.id))?.setting.billing_tag).toBe('research');
    expect(((await ok(call('GET', `/api/token/${created.id}`, staff))) as Token).setting.billing_tag).toBe('research');

    // A setting sent without the field (this console's form) keeps it; empty or null clears it.
    await ok(call('PUT', '/api/token/', staff, { id: created.id, setting: { chat_cache: false } }));
    expect(await storedSetting(created.id)).toMatchObject({ billing_tag: 'research', chat_cache: false });
    await ok(call('PUT', '/api/token/', staff, { id: created.id, setting: { billing_tag: 'ops' } }));
    expect((await storedSetting(created.id)).billing_tag).toBe('ops');
    for (const cleared of ['', null]) {
      await ok(call('PUT', '/api/token/', staff, { id: created.id, setting: { billing_tag: 'again' } }));
      const answer = (await ok(
        call('PUT', '/api/token/', staff, { id: created.id, setting: { billing_tag: cleared } }),
      )) as Token;
      expect(answer.setting, String(cleared)).not.toHaveProperty('billing_tag');
      expect(await storedSetting(created.id), String(cleared)).not.toHaveProperty('billing_tag');
    }
  });

  it('neither stores nor returns it for a common user, whose edits keep the tag an admin set', async () => {
    const created = (await ok(
      call('POST', '/api/token/', plain.cookie, { name: 'mine', setting: { billing_tag: 'sneaky' } }),
    )) as Token;
    expect(created.setting).not.toHaveProperty('billing_tag');
    expect(await storedSetting(created.id)).not.toHaveProperty('billing_tag');

    const byAdmin = (await ok(
      call('PUT', '/api/token/admin', root, { id: created.id, setting: { billing_tag: 'marketing' } }),
    )) as Token;
    expect(byAdmin.setting.billing_tag).toBe('marketing');
    const search = (await ok(call('GET', `/api/token/admin/search?token_id=${created.id}`, root))) as { data: Token[] };
    expect(search.data[0]?.setting.billing_tag).toBe('marketing');

    expect((await listed(plain.cookie, created.id))?.setting).not.toHaveProperty('billing_tag');
    const detail = (await ok(call('GET', `/api/token/${created.id}`, plain.cookie))) as Token;
    expect(detail.setting).not.toHaveProperty('billing_tag');
    for (const setting of [{ billing_tag: 'mine-now' }, { billing_tag: '' }, { chat_cache: false }]) {
      const answer = (await ok(call('PUT', '/api/token/', plain.cookie, { id: created.id, setting }))) as Token;
      expect(answer.setting, JSON.stringify(setting)).not.toHaveProperty('billing_tag');
      expect((await storedSetting(created.id)).billing_tag, JSON.stringify(setting)).toBe('marketing');
    }
    await ok(call('PUT', '/api/token/?status_only=1', plain.cookie, { id: created.id, status: 2 }));
    expect((await storedSetting(created.id)).billing_tag).toBe('marketing');
  });

  it('hides the tag again once the user is demoted, and keeps it stored', async () => {
    await t.createUser('formerstaff');
    await call('POST', '/api/user/manage', root, { username: 'formerstaff', action: 'set_reliable' });
    const cookie = await t.login('formerstaff', 'password-123');
    const created = (await ok(
      call('POST', '/api/token/', cookie, { name: 'k', setting: { billing_tag: 'lab' } }),
    )) as Token;
    expect(created.setting.billing_tag).toBe('lab');
    await ok(call('POST', '/api/user/manage', root, { username: 'formerstaff', action: 'demote' }));
    const after = await t.login('formerstaff', 'password-123');
    expect(((await ok(call('GET', `/api/token/${created.id}`, after))) as Token).setting).not.toHaveProperty(
      'billing_tag',
    );
    expect((await storedSetting(created.id)).billing_tag).toBe('lab');
  });

  it('refuses a tag that is not a short string with 400 naming it, and writes nothing', async () => {
    const before = (await t.database.db.selectFrom('tokens').select('id').execute()).length;
    for (const [tag, message] of [
      ['x'.repeat(51), 'billing_tag must be at most 50 characters'],
      [7, 'billing_tag must be a string'],
    ] as const) {
      const answer = await call('POST', '/api/token/', staff, { name: 'bad', setting: { billing_tag: tag } });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toContain(message);
    }
    expect((await t.database.db.selectFrom('tokens').select('id').execute()).length).toBe(before);
  });
});
