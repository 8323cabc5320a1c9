import { describe, expect, it } from 'vitest';
import { auditRowsOf, onlyRow } from '../../../test/api/audit-rows.js';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

/** Issue 36: every change of a user group leaves an audit row; its budgets a `budget` row of their own. */
describe.each(availableDialects)('user group audit rows on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const rowsOf = (change: () => Promise<unknown>) => auditRowsOf(s.t.database, change);
  const budgets = [{ period: 'day', quota: 1000 }];

  it('records a creation with its fields, and its budgets as a budget row', async () => {
    const rows = await rowsOf(async () => {
      const created = await s.call('POST', '/api/user_group/', s.root, { symbol: 'crew', name: 'Crew', budgets });
      expect(created.statusCode).toBe(200);
    });
    expect(rows.map((row) => `${row.resource}/${row.action}`)).toEqual(['user_group/create', 'budget/update']);
    const [group, budget] = rows;
    expect(group).toMatchObject({ actor_name: 'root', actor_role: 100, target_name: 'crew' });
    expect(group?.changes).toMatchObject({
      symbol: { after: 'crew' },
      name: { after: 'Crew' },
      enable: { after: true },
    });
    expect(group?.changes).not.toHaveProperty('budgets');
    expect(budget).toMatchObject({ target_id: 'group:crew' });
    expect(budget?.changes).toEqual({ budgets: { before: [], after: [expect.objectContaining(budgets[0])] } });
  });

  it('records only the fields an update changed, then enabling, disabling and the deletion', async () => {
    const created = await s.call('POST', '/api/user_group/', s.root, { symbol: 'team', name: 'Team', ratio: 1 });
    const id = created.json().data.id as number;
    const update = { id, name: 'Team', ratio: 0.5, api_rate: 600 };
    const updated = onlyRow(
      await rowsOf(() => s.call('PUT', '/api/user_group/', s.root, update)),
      'user_group',
      'update',
    );
    expect(updated).toMatchObject({ target_id: String(id), target_name: 'team' });
    expect(updated.changes).toEqual({ ratio: { before: 1, after: 0.5 } });
    // Saving the same values again changes nothing, so nothing is recorded.
    expect(await rowsOf(() => s.call('PUT', '/api/user_group/', s.root, update))).toEqual([]);

    const disabled = onlyRow(
      await rowsOf(() => s.call('PUT', `/api/user_group/enable/${id}`, s.root)),
      'user_group',
      'disable',
    );
    expect(disabled.changes).toEqual({ enable: { before: true, after: false } });
    const enabled = await rowsOf(() => s.call('PUT', `/api/user_group/enable/${id}`, s.root));
    expect(onlyRow(enabled, 'user_group', 'enable').changes).toEqual({ enable: { before: false, after: true } });

    const deleted = onlyRow(
      await rowsOf(() => s.call('DELETE', `/api/user_group/${id}`, s.root)),
      'user_group',
      'delete',
    );
    expect(deleted.changes).toMatchObject({ symbol: { before: 'team' }, ratio: { before: 0.5 } });
  });

  it('records a budget change alone when only the budgets changed', async () => {
    const created = await s.call('POST', '/api/user_group/', s.root, { symbol: 'metered', name: 'Metered' });
    const id = created.json().data.id as number;
    const rows = await rowsOf(() =>
      s.call('PUT', '/api/user_group/', s.root, { id, name: 'Metered', ratio: 1, api_rate: 600, budgets }),
    );
    const budget = onlyRow(rows, 'budget', 'update');
    expect(budget).toMatchObject({ target_id: 'group:metered' });
    expect(budget.changes.budgets?.before).toEqual([]);
  });

  it('records nothing for refused changes', async () => {
    const created = await s.call('POST', '/api/user_group/', s.root, { symbol: 'fixed', name: 'Fixed' });
    const id = created.json().data.id as number;
    const rows = await rowsOf(async () => {
      const duplicate = await s.call('POST', '/api/user_group/', s.root, { symbol: 'fixed', name: 'Again' });
      expect(duplicate.statusCode).toBe(409);
      const renamed = await s.call('PUT', '/api/user_group/', s.root, { id, symbol: 'moved', name: 'F', ratio: 1 });
      expect(renamed.statusCode).toBe(400);
      const negative = await s.call('PUT', '/api/user_group/', s.root, { id, name: 'F', ratio: -1, api_rate: 1 });
      expect(negative.statusCode).toBe(400);
      expect((await s.call('DELETE', '/api/user_group/999999', s.root)).statusCode).toBe(404);
      const defaultId = (await s.t.services.groups.find('default'))?.id;
      expect((await s.call('DELETE', `/api/user_group/${defaultId}`, s.root)).statusCode).toBe(400);
      expect((await s.call('PUT', '/api/user_group/', s.plain, { id, name: 'Mine', ratio: 0 })).statusCode).toBe(403);
    });
    expect(rows).toEqual([]);
  });
});
