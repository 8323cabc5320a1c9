import { describe, expect, it } from 'vitest';
import { auditRowCount, auditText, storedAuditRows } from '../../../test/api/audit-rows.js';
import { createAdmin, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

const dayBudget = [{ period: 'day', quota: 500 }];

describe.each(availableDialects)('audit rows of users, balances, keys and budgets on %s', (dialect) => {
  const session = useRootAndPlain(dialect);
  const rows = (resource: string, targetId?: string | number) => storedAuditRows(session.t, { resource, targetId });

  async function createUser(username: string, extra: Record<string, unknown> = {}): Promise<number> {
    const body = { username, password: 'first-password-1', ...extra };
    const response = await session.call('POST', '/api/user/', session.root, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.id;
  }

  it('records a user created, edited and deleted by an administrator, the password only as changed', async () => {
    const id = await createUser('audited_user', { budgets: dayBudget });
    const [created] = await rows('user', id);
    expect(created).toMatchObject({ actor_name: 'root', action: 'create', target_name: 'audited_user' });
    expect(created?.changes).toMatchObject({ username: { after: 'audited_user' }, password: { secret: true } });
    expect((await rows('budget', `user:${id}`))[0]?.changes).toEqual({ budgets: { before: [], after: dayBudget } });

    const edited = await session.call('PUT', '/api/user/', session.root, {
      id,
      display_name: 'Audited',
      password: 'second-password-2',
      budgets: [],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const updated = (await rows('user', id)).at(-1);
    expect(updated).toMatchObject({ action: 'update' });
    expect(updated?.changes).toEqual({
      display_name: { before: 'audited_user', after: 'Audited' },
      password: { secret: true },
    });
    expect((await rows('budget', `user:${id}`)).at(-1)?.changes).toEqual({ budgets: { before: dayBudget, after: [] } });

    expect((await session.call('DELETE', `/api/user/${id}`, session.root)).statusCode).toBe(200);
    expect((await rows('user', id)).at(-1)).toMatchObject({ action: 'delete', target_name: 'audited_user' });
    const stored = await auditText(session.t);
    for (const secret of ['first-password-1', 'second-password-2']) expect(stored).not.toContain(secret);
  });

  it('names the manage actions, and records nothing for a refused one', async () => {
    const id = await createUser('managed_user');
    const manage = (action: string, cookie = session.root) =>
      session.call('POST', '/api/user/manage', cookie, { username: 'managed_user', action });
    for (const action of ['disable', 'enable', 'promote', 'demote', 'set_reliable']) {
      expect((await manage(action)).statusCode).toBe(200);
    }
    const actions = (await rows('user', id)).slice(1).map((row) => [row.action, row.changes]);
    expect(actions).toEqual([
      ['disable', { status: { before: 1, after: 2 } }],
      ['enable', { status: { before: 2, after: 1 } }],
      ['promote', { role: { before: 1, after: 10 } }],
      ['demote', { role: { before: 10, after: 1 } }],
      ['promote', { role: { before: 1, after: 3 } }],
    ]);

    const before = await auditRowCount(session.t);
    const admin = await createAdmin(session.t, session.root, 'manage_admin');
    const afterPromotion = await auditRowCount(session.t);
    expect(afterPromotion).toBe(before + 1);
    // Only root promotes; a user already reliable cannot be made reliable again.
    expect((await manage('promote', admin.cookie)).statusCode).toBe(403);
    expect((await manage('set_reliable')).statusCode).toBe(400);
    expect(await auditRowCount(session.t)).toBe(afterPromotion);

    expect((await manage('delete')).statusCode).toBe(200);
    expect((await rows('user', id)).at(-1)).toMatchObject({ action: 'delete', actor_name: 'root' });
  });

  it('records a balance change with the quota before and after, and no row for an overdraw', async () => {
    const id = await createUser('balance_user');
    const added = await session.call('POST', `/api/user/quota/${id}`, session.root, { quota: 700, remark: 'gift' });
    expect(added.statusCode, added.body).toBe(200);
    const subtracted = await session.call('POST', `/api/user/quota/${id}`, session.root, { quota: -200 });
    expect(subtracted.statusCode).toBe(200);
    const before = await auditRowCount(session.t);
    const overdraw = await session.call('POST', `/api/user/quota/${id}`, session.root, { quota: -501 });
    expect(overdraw.statusCode).toBe(400);
    expect(await auditRowCount(session.t)).toBe(before);
    const balances = await rows('balance', id);
    expect(balances.map((row) => [row.action, row.target_name, row.changes])).toEqual([
      ['update', 'balance_user', { quota: { before: 0, after: 700 }, remark: { after: 'gift' } }],
      ['update', 'balance_user', { quota: { before: 700, after: 500 } }],
    ]);
  });

  it("records an administrator's key edits: a move to another user, a status change, budgets", async () => {
    const owner = await session.t.createUser('key_owner');
    const heir = await session.t.createUser('key_heir');
    const created = await session.call('POST', '/api/token/', owner.cookie, { name: 'moved-key' });
    expect(created.statusCode, created.body).toBe(200);
    const { id, key } = created.json().data as { id: number; key: string };
    // The owner's own edits are self-service: not recorded.
    expect((await session.call('PUT', '/api/token/', owner.cookie, { id, name: 'renamed-key' })).statusCode).toBe(200);
    expect(await rows('token', id)).toEqual([]);

    const before = await auditRowCount(session.t);
    const refused = await session.call('PUT', '/api/token/admin', session.root, { id, user_id: 999_999 });
    expect(refused.statusCode).toBe(400);
    expect(await auditRowCount(session.t)).toBe(before);

    const moved = await session.call('PUT', '/api/token/admin', session.root, {
      id,
      user_id: heir.id,
      remain_quota: 42,
      setting: { budgets: dayBudget },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const disabled = await session.call('PUT', '/api/token/admin?status_only=1', session.root, { id, status: 2 });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const [move, disable] = await rows('token', id);
    expect(move).toMatchObject({ action: 'move', target_name: 'renamed-key' });
    expect(move?.changes).toMatchObject({
      user_id: { before: owner.id, after: heir.id },
      remain_quota: { before: 0, after: 42 },
    });
    expect(move?.changes).not.toHaveProperty('setting');
    expect(disable).toMatchObject({ action: 'disable', changes: { status: { before: 1, after: 2 } } });
    expect((await rows('budget', `key:${id}`)).map((row) => row.changes)).toEqual([
      { budgets: { before: [], after: dayBudget } },
    ]);
    expect(await auditText(session.t)).not.toContain(key);
  });
});
