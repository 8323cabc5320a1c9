import { describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { changedFields } from './changes.js';
import { type AuditScope, runInAuditScope } from './context.js';
import { type AuditEntry, recordAudit, recordAudits } from './recorder.js';

const scope: AuditScope = {
  actor: () => ({ id: 7, username: 'boss', role: 100 }),
  ip: '203.0.113.9',
  requestId: 'req-1',
};

describe('changedFields', () => {
  it('keeps only the fields that differ, with both values', () => {
    expect(changedFields({ name: 'a', priority: 1, models: ['x'] }, { name: 'a', priority: 2, models: ['x'] })).toEqual(
      {
        priority: { before: 1, after: 2 },
      },
    );
  });

  it('records a secret as changed, never its values', () => {
    const changes = changedFields({ key: 'sk-old' }, { key: 'sk-new' }, { secret: ['key'] });
    expect(changes).toEqual({ key: { secret: true } });
    expect(JSON.stringify(changes)).not.toContain('sk-');
  });

  it('names every field of a creation and a deletion, and leaves ignored ones out', () => {
    expect(
      changedFields(undefined, { name: 'n', key: 'sk-1', updated: 5 }, { secret: ['key'], ignore: ['updated'] }),
    ).toEqual({
      name: { after: 'n' },
      key: { secret: true },
    });
    expect(changedFields({ name: 'n' }, undefined)).toEqual({ name: { before: 'n' } });
  });
});

describe.each(availableDialects)('recordAudit on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  const rows = () => handle.db.selectFrom('audit_logs').selectAll().orderBy('id').execute();

  it('writes the actor, target, changes, address and request id of a change made in a request', async () => {
    await runInAuditScope(scope, () =>
      recordAudit(handle.db, {
        resource: 'channel',
        action: 'update',
        targetId: 3,
        targetName: 'main',
        changes: changedFields({ priority: 1 }, { priority: 5 }),
      }),
    );
    const [row] = await rows();
    expect(row).toMatchObject({
      actor_id: 7,
      actor_name: 'boss',
      actor_role: 100,
      resource: 'channel',
      action: 'update',
      target_id: '3',
      target_name: 'main',
      ip: '203.0.113.9',
      request_id: 'req-1',
    });
    expect(JSON.parse(row?.changes ?? '')).toEqual({ priority: { before: 1, after: 5 } });
  });

  it('writes nothing outside a request, for an update that changed nothing, or when the change rolls back', async () => {
    const before = (await rows()).length;
    await recordAudit(handle.db, { resource: 'user', action: 'delete', targetId: 1, changes: {} });
    await runInAuditScope(scope, () =>
      recordAudit(handle.db, { resource: 'user', action: 'update', targetId: 1, changes: {} }),
    );
    await expect(
      runInAuditScope(scope, () =>
        handle.db.transaction().execute(async (transaction) => {
          await recordAudit(transaction, { resource: 'user', action: 'delete', targetId: 2, changes: {} });
          throw new Error('the change failed');
        }),
      ),
    ).rejects.toThrow('the change failed');
    expect((await rows()).length).toBe(before);
  });

  it('writes the rows of a bulk change in a few inserts, every one of them, and skips the empty updates', async () => {
    const before = (await rows()).length;
    const entries = Array.from(
      { length: 1201 },
      (_, index): AuditEntry => ({
        resource: 'price',
        action: index === 0 ? 'update' : 'create',
        targetId: `model-${index}`,
        changes: index === 0 ? {} : { input: { after: index } },
      }),
    );
    await runInAuditScope(scope, () =>
      handle.db.transaction().execute((transaction) => recordAudits(transaction, entries)),
    );
    const written = (await rows()).slice(before);
    expect(written).toHaveLength(1200);
    expect(written.map((row) => row.target_id)).toEqual(entries.slice(1).map((entry) => entry.targetId));
  });
});
