import type { AuditLogItem } from '@one-hub/contracts';
import { toAuditLogItem } from '../../src/api/audit/presenter.js';
import type { TestApp } from '../app.js';

/** The audit rows as stored, oldest first, of one resource (and one target when given), changes parsed. */
export async function auditRows(
  t: Pick<TestApp, 'database'>,
  filter: { resource: string; targetId?: string | number },
): Promise<AuditLogItem[]> {
  let query = t.database.db.selectFrom('audit_logs').selectAll().where('resource', '=', filter.resource);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', String(filter.targetId));
  return (await query.orderBy('id').execute()).map(toAuditLogItem);
}

/** How many audit rows there are in all: a failed change must leave this unchanged. */
export async function auditRowCount(t: Pick<TestApp, 'database'>): Promise<number> {
  const row = await t.database.db
    .selectFrom('audit_logs')
    .select((expression) => expression.fn.countAll().as('total'))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Every stored audit row as text, to show that a secret appears nowhere in any of them. */
export async function auditText(t: Pick<TestApp, 'database'>): Promise<string> {
  return JSON.stringify(await t.database.db.selectFrom('audit_logs').selectAll().execute());
}
