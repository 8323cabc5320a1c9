import { describe, expect, it } from 'vitest';
import { auditRowsOf, onlyRow } from '../../../test/api/audit-rows.js';
import { createAdmin, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

const KEY = 'epay-merchant-key-audit-0123456789';

/** Issue 36: payment gateways created, edited and deleted leave audit rows; their credentials never appear. */
describe.each(availableDialects)('payment gateway audit rows on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const rowsOf = (change: () => Promise<unknown>) => auditRowsOf(s.t.database, change);
  const config = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ pay_domain: 'https://pay.example.test', partner_id: '1001', key: KEY, ...extra });
  const create = async (name: string) => {
    const response = await s.call('POST', '/api/payment/', s.root, {
      type: 'epay',
      name,
      currency: 'USD',
      config: config(),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: number; config: string };
  };

  it('records a creation with its fields and config fields, the merchant key only as a secret', async () => {
    let id = 0;
    const rows = await rowsOf(async () => {
      id = (await create('Epay audit')).id;
    });
    const row = onlyRow(rows, 'payment', 'create');
    expect(row).toMatchObject({ actor_name: 'root', target_id: String(id), target_name: 'Epay audit' });
    expect(row.changes).toMatchObject({
      type: { after: 'epay' },
      name: { after: 'Epay audit' },
      'config.pay_domain': { after: 'https://pay.example.test' },
      'config.partner_id': { after: '1001' },
      'config.key': { secret: true },
    });
    expect(row.raw).not.toContain(KEY);
    expect(row.raw).not.toContain(KEY.slice(-4));
  });

  it('records an edit: the changed fields with values, a changed key as changed, a masked key sent back as no change', async () => {
    const gateway = await create('Epay edited');
    const renamed = await rowsOf(() =>
      s.call('PUT', '/api/payment/', s.root, { id: gateway.id, name: 'Epay renamed', sort: 3 }),
    );
    expect(onlyRow(renamed, 'payment', 'update').changes).toEqual({
      name: { before: 'Epay edited', after: 'Epay renamed' },
      sort: { before: 1, after: 3 },
    });
    // The masked key the list shows, sent back with another partner: the key is unchanged.
    const partner = await rowsOf(() =>
      s.call('PUT', '/api/payment/', s.root, {
        id: gateway.id,
        config: config({ partner_id: '2002', key: '••••6789' }),
      }),
    );
    expect(onlyRow(partner, 'payment', 'update').changes).toEqual({
      'config.partner_id': { before: '1001', after: '2002' },
    });
    const rotated = await rowsOf(() =>
      s.call('PUT', '/api/payment/', s.root, {
        id: gateway.id,
        config: config({ partner_id: '2002', key: `${KEY}-new` }),
      }),
    );
    const row = onlyRow(rotated, 'payment', 'update');
    expect(row.changes).toEqual({ 'config.key': { secret: true } });
    expect(row.raw).not.toContain(KEY);
  });

  it('records a deletion, and nothing for refused changes', async () => {
    const gateway = await create('Epay deleted');
    const admin = await createAdmin(s.t, s.root, 'payaudadm');
    const refused = await rowsOf(async () => {
      const badConfig = { type: 'epay', name: 'Bad', currency: 'USD', config: config({ pay_domain: 'ftp://x' }) };
      expect((await s.call('POST', '/api/payment/', s.root, badConfig)).statusCode).toBe(400);
      const byAdmin = { id: gateway.id, config: config({ key: 'stolen-key-000000000000' }) };
      expect((await s.call('PUT', '/api/payment/', admin.cookie, byAdmin)).statusCode).toBe(403);
      expect((await s.call('PUT', '/api/payment/', s.root, { id: 999999, name: 'Ghost' })).statusCode).toBe(404);
      expect((await s.call('DELETE', `/api/payment/${gateway.id}`, admin.cookie)).statusCode).toBe(403);
    });
    expect(refused).toEqual([]);

    const deleted = await rowsOf(() => s.call('DELETE', `/api/payment/${gateway.id}`, s.root));
    const row = onlyRow(deleted, 'payment', 'delete');
    expect(row.changes).toMatchObject({ name: { before: 'Epay deleted' }, 'config.key': { secret: true } });
    expect(row.raw).not.toContain(KEY);
  });
});
