import { describe, expect, it } from 'vitest';
import { type AuditRow, auditRowsOf, onlyRow } from '../../../test/api/audit-rows.js';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';

/** Issue 36: price and model information (owners included) changes leave audit rows. */
describe.each(availableDialects)('price and model information audit rows on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const rowsOf = (change: () => Promise<unknown>) => auditRowsOf(s.t.database, change);
  const fields = (input: number) => ({
    type: 'tokens',
    channel_type: providerType('mistral'),
    input,
    output: input * 2,
    locked: false,
  });
  const actions = (rows: readonly AuditRow[]) => rows.map((row) => `${row.action} ${row.target_id}`);
  const ok = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const response = await s.call(method, url, s.root, body);
    expect(response.statusCode, response.body).toBe(200);
  };

  it('records a single price created, updated (renamed) and deleted', async () => {
    const created = onlyRow(
      await rowsOf(() => ok('POST', '/api/prices/single', { model: 'audit-a', ...fields(1) })),
      'price',
      'create',
    );
    expect(created).toMatchObject({ actor_name: 'root', target_id: 'audit-a', target_name: 'audit-a' });
    expect(created.changes).toMatchObject({ model: { after: 'audit-a' }, input: { after: 1 }, output: { after: 2 } });

    const updated = await rowsOf(() => ok('PUT', '/api/prices/single/audit-a', { model: 'audit-b', ...fields(3) }));
    expect(onlyRow(updated, 'price', 'update')).toMatchObject({ target_id: 'audit-a' });
    expect(updated[0]?.changes).toEqual({
      model: { before: 'audit-a', after: 'audit-b' },
      input: { before: 1, after: 3 },
      output: { before: 2, after: 6 },
    });

    const deleted = onlyRow(await rowsOf(() => ok('DELETE', '/api/prices/single/audit-b')), 'price', 'delete');
    expect(deleted.changes).toMatchObject({ model: { before: 'audit-b' }, input: { before: 3 } });
  });

  it('records one row per model of a multiple edit and a multiple delete', async () => {
    await ok('POST', '/api/prices/multiple', { models: ['bulk-a', 'bulk-b'], price: fields(1) });
    const rows = await rowsOf(() =>
      ok('POST', '/api/prices/multiple', {
        original_models: ['bulk-a', 'bulk-b'],
        models: ['bulk-b', 'bulk-c'],
        price: fields(2),
      }),
    );
    expect(actions(rows).sort()).toEqual(['create bulk-c', 'delete bulk-a', 'update bulk-b']);
    expect(rows.find((row) => row.action === 'update')?.changes).toEqual({
      input: { before: 1, after: 2 },
      output: { before: 2, after: 4 },
    });
    const deleted = await rowsOf(() => ok('PUT', '/api/prices/multiple/delete', { models: ['bulk-b', 'bulk-c'] }));
    expect(actions(deleted).sort()).toEqual(['delete bulk-b', 'delete bulk-c']);
  });

  it('records a synchronisation as one summary row with its counts', async () => {
    const list = [
      { model: 'sync-a', ...fields(1) },
      { model: 'sync-b', ...fields(1) },
    ];
    const row = onlyRow(await rowsOf(() => ok('POST', '/api/prices/sync?updateMode=add', list)), 'price', 'update');
    expect(row).toMatchObject({ target_id: 'sync', target_name: 'sync (add)' });
    expect(row.changes).toEqual({ mode: { after: 'add' }, added: { after: 2 } });
    // The same list again adds nothing: no row.
    expect(await rowsOf(() => ok('POST', '/api/prices/sync?updateMode=add', list))).toEqual([]);
  });

  it('records model owners and model information, leaving timestamps out', async () => {
    const owner = await rowsOf(() => ok('POST', '/api/model_ownedby/', { id: 2001, name: 'Acme', icon: '' }));
    expect(onlyRow(owner, 'model_info', 'create')).toMatchObject({ target_id: 'owner:2001', target_name: 'Acme' });
    const renamed = await rowsOf(() => ok('PUT', '/api/model_ownedby/', { id: 2001, name: 'Acme Labs', icon: '' }));
    expect(onlyRow(renamed, 'model_info', 'update').changes).toEqual({ name: { before: 'Acme', after: 'Acme Labs' } });
    expect(onlyRow(await rowsOf(() => ok('DELETE', '/api/model_ownedby/2001')), 'model_info', 'delete')).toMatchObject({
      target_id: 'owner:2001',
    });

    const info = { model: 'audit-model', name: 'Audit', description: 'A model.', context_length: 1000 };
    const created = await rowsOf(() => ok('POST', '/api/model_info/', info));
    const createdRow = onlyRow(created, 'model_info', 'create');
    expect(createdRow).toMatchObject({ target_name: 'audit-model' });
    expect(createdRow.changes).toMatchObject({ model: { after: 'audit-model' }, context_length: { after: 1000 } });
    expect(createdRow.changes).not.toHaveProperty('created_at');
    const id = createdRow.target_id;
    const updated = await rowsOf(() =>
      ok('PUT', '/api/model_info/', { id: Number(id), ...info, context_length: 2000 }),
    );
    expect(onlyRow(updated, 'model_info', 'update').changes).toEqual({
      context_length: { before: 1000, after: 2000 },
    });
    expect(onlyRow(await rowsOf(() => ok('DELETE', `/api/model_info/${id}`)), 'model_info', 'delete').target_id).toBe(
      id,
    );
  });

  it('records nothing for refused changes', async () => {
    await ok('POST', '/api/prices/single', { model: 'taken', ...fields(1) });
    await ok('POST', '/api/model_info/', { model: 'described', name: 'D' });
    const rows = await rowsOf(async () => {
      const refusals: Array<[number, 'POST' | 'PUT' | 'DELETE', string, unknown]> = [
        [409, 'POST', '/api/prices/single', { model: 'taken', ...fields(2) }],
        [400, 'POST', '/api/prices/single', { model: 'negative', ...fields(-1) }],
        [404, 'PUT', '/api/prices/single/missing', fields(1)],
        [404, 'DELETE', '/api/prices/single/missing', undefined],
        [409, 'POST', '/api/prices/multiple', { models: ['taken', 'fresh'], price: fields(1) }],
        [400, 'PUT', '/api/model_ownedby/', { id: 1, name: 'Built-in', icon: '' }],
        [404, 'DELETE', '/api/model_ownedby/5555', undefined],
        [409, 'POST', '/api/model_info/', { model: 'described', name: 'Again' }],
        [404, 'DELETE', '/api/model_info/999999', undefined],
      ];
      for (const [status, method, url, body] of refusals) {
        expect((await s.call(method, url, s.root, body)).statusCode, `${method} ${url}`).toBe(status);
      }
    });
    expect(rows).toEqual([]);
  });
});
