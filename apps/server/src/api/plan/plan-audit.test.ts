import { describe, expect, it } from 'vitest';
import { auditRowsOf, onlyRow } from '../../../test/api/audit-rows.js';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

const planBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Audit Pro',
  description: 'For daily coding',
  price: 9.99,
  currency: 'USD',
  duration_days: 30,
  budgets: [{ period: 'day', quota: 1000 }],
  models: ['gpt-4o-mini'],
  ...extra,
});

/** Issue 36: plans created, edited, deleted and granted leave audit rows. */
describe.each(availableDialects)('plan audit rows on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const rowsOf = (change: () => Promise<unknown>) => auditRowsOf(s.t.database, change);
  const create = async (extra: Record<string, unknown> = {}) => {
    const response = await s.call('POST', '/api/plan/', s.root, planBody(extra));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: number };
  };

  it('records a plan created, edited (budgets in the plan row) and deleted', async () => {
    let id = 0;
    const created = onlyRow(
      await rowsOf(async () => {
        id = (await create()).id;
      }),
      'plan',
      'create',
    );
    expect(created).toMatchObject({ actor_name: 'root', target_id: String(id), target_name: 'Audit Pro' });
    expect(created.changes).toMatchObject({ name: { after: 'Audit Pro' }, price: { after: 9.99 } });
    expect(created.changes).not.toHaveProperty('created_at');

    const edit = { id, ...planBody({ price: 19.99, budgets: [{ period: 'day', quota: 2000 }] }) };
    const updated = onlyRow(
      await rowsOf(async () => {
        const response = await s.call('PUT', '/api/plan/', s.root, edit);
        expect(response.statusCode, response.body).toBe(200);
      }),
      'plan',
      'update',
    );
    expect(Object.keys(updated.changes).sort()).toEqual(['budgets', 'price']);
    expect(updated.changes.price).toEqual({ before: 9.99, after: 19.99 });

    const deleted = onlyRow(await rowsOf(() => s.call('DELETE', `/api/plan/${id}`, s.root)), 'plan', 'delete');
    expect(deleted.changes).toMatchObject({ name: { before: 'Audit Pro' }, price: { before: 19.99 } });
  });

  it('records a grant with the user it was given to', async () => {
    const plan = await create({ name: 'Granted' });
    const user = await s.t.createUser('grantee');
    const rows = await rowsOf(() => s.call('POST', '/api/plan/grant', s.root, { user_id: user.id, plan_id: plan.id }));
    const row = onlyRow(rows, 'plan', 'grant');
    expect(row).toMatchObject({ target_id: String(plan.id), target_name: 'Granted' });
    expect(row.changes).toMatchObject({
      user_id: { after: user.id },
      username: { after: 'grantee' },
      renewed: { after: false },
    });
    expect(row.changes.expires_at?.after).toEqual(expect.any(Number));
  });

  it('records nothing for refused changes', async () => {
    const plan = await create({ name: 'Kept' });
    const rows = await rowsOf(async () => {
      expect((await s.call('POST', '/api/plan/', s.root, planBody({ group: 'nowhere' }))).statusCode).toBe(400);
      expect((await s.call('PUT', '/api/plan/', s.root, { id: plan.id, ...planBody({ price: -1 }) })).statusCode).toBe(
        400,
      );
      expect((await s.call('PUT', '/api/plan/', s.root, { id: 999999, ...planBody() })).statusCode).toBe(404);
      expect((await s.call('DELETE', '/api/plan/999999', s.root)).statusCode).toBe(404);
      const noUser = { user_id: 999999, plan_id: plan.id };
      expect((await s.call('POST', '/api/plan/grant', s.root, noUser)).statusCode).toBe(404);
      expect((await s.call('POST', '/api/plan/', s.plain, planBody())).statusCode).toBe(403);
    });
    expect(rows).toEqual([]);
  });
});
