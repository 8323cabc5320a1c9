import { RedemptionStatus } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { auditRowsOf, onlyRow } from '../../../test/api/audit-rows.js';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

/** Issue 36: redemption codes created (one row a batch), edited, enabled, disabled and deleted leave audit rows. */
describe.each(availableDialects)('redemption code audit rows on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const rowsOf = (change: () => Promise<unknown>) => auditRowsOf(s.t.database, change);
  const create = async (name: string, count: number): Promise<string[]> => {
    const response = await s.call('POST', '/api/redemption/', s.root, { name, quota: 1000, count });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const idsNamed = async (name: string): Promise<number[]> => {
    const page = (await s.call('GET', `/api/redemption/?keyword=${name}&size=100`, s.root)).json().data;
    return (page.data as Array<{ id: number }>).map((code) => code.id).sort((left, right) => left - right);
  };

  it('records a batch as one row with its name, quota, count and ids, and the codes nowhere', async () => {
    let keys: string[] = [];
    const rows = await rowsOf(async () => {
      keys = await create('Welcome', 3);
    });
    const row = onlyRow(rows, 'redemption', 'create');
    const ids = await idsNamed('Welcome');
    expect(row).toMatchObject({ actor_name: 'root', target_id: `${ids[0]}-${ids[2]}`, target_name: 'Welcome' });
    expect(row.changes).toEqual({
      name: { after: 'Welcome' },
      quota: { after: 1000 },
      count: { after: 3 },
      ids: { after: ids },
      keys: { secret: true },
    });
    for (const key of keys) expect(row.raw).not.toContain(key);
  });

  it('records an edit, disabling, enabling and a deletion of a code', async () => {
    await create('Single', 1);
    const [id] = await idsNamed('Single');
    const edit = { id, name: 'Single renamed', quota: 2000 };
    const updated = onlyRow(
      await rowsOf(() => s.call('PUT', '/api/redemption/', s.root, edit)),
      'redemption',
      'update',
    );
    expect(updated).toMatchObject({ target_id: String(id), target_name: 'Single renamed' });
    expect(updated.changes).toEqual({
      name: { before: 'Single', after: 'Single renamed' },
      quota: { before: 1000, after: 2000 },
    });

    const status = (value: number) => s.call('PUT', '/api/redemption/?status_only=true', s.root, { id, status: value });
    const disabled = onlyRow(await rowsOf(() => status(RedemptionStatus.disabled)), 'redemption', 'disable');
    expect(disabled.changes).toEqual({
      status: { before: RedemptionStatus.enabled, after: RedemptionStatus.disabled },
    });
    // Disabling a disabled code changes nothing.
    expect(await rowsOf(() => status(RedemptionStatus.disabled))).toEqual([]);
    expect(onlyRow(await rowsOf(() => status(RedemptionStatus.enabled)), 'redemption', 'enable').target_id).toBe(
      String(id),
    );

    const deleted = onlyRow(
      await rowsOf(() => s.call('DELETE', `/api/redemption/${id}`, s.root)),
      'redemption',
      'delete',
    );
    expect(deleted.changes).toEqual({
      name: { before: 'Single renamed' },
      quota: { before: 2000 },
      status: { before: RedemptionStatus.enabled },
    });
  });

  it('records nothing for refused changes, nor for a user redeeming a code', async () => {
    const [key] = await create('Spent', 1);
    const [id] = await idsNamed('Spent');
    const rows = await rowsOf(async () => {
      expect((await s.call('POST', '/api/user/topup', s.plain, { key })).statusCode).toBe(200);
      const requote = await s.call('PUT', '/api/redemption/', s.root, { id, quota: 5 });
      expect(requote.statusCode).toBe(409);
      const disable = { id, status: RedemptionStatus.disabled };
      expect((await s.call('PUT', '/api/redemption/?status_only=true', s.root, disable)).statusCode).toBe(409);
      const tooMany = { name: 'Many', quota: 1, count: 1000 };
      expect((await s.call('POST', '/api/redemption/', s.root, tooMany)).statusCode).toBe(400);
      expect((await s.call('DELETE', '/api/redemption/999999', s.root)).statusCode).toBe(404);
      expect((await s.call('POST', '/api/redemption/', s.plain, { name: 'Mine', quota: 1, count: 1 })).statusCode).toBe(
        403,
      );
    });
    expect(rows).toEqual([]);
  });
});
