import type { AuditAction, AuditChanges, AuditLogItem, AuditResource } from '@one-hub/contracts';
import type { Selectable } from 'kysely';
import { toAuditLogItem } from '../../src/api/audit/presenter.js';
import type { AuditLogsTable, DatabaseHandle } from '../../src/platform/db/index.js';
import type { TestApp } from '../app.js';

/** The audit rows as stored, oldest first, of one resource (and one target when given), changes parsed. */
export async function storedAuditRows(
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

/** An audit row as a test reads it: `changes` parsed, ids as numbers whatever the driver returned. */
export type AuditRow = Omit<Selectable<AuditLogsTable>, 'changes' | 'created_at' | 'request_id'> & {
  changes: AuditChanges;
  /** The row as stored, to check a secret appears nowhere in it. */
  raw: string;
};

/** The audit rows of `resource` (every resource when absent) written after row `afterId`, oldest first. */
export async function auditRows(database: DatabaseHandle, resource?: AuditResource, afterId = 0): Promise<AuditRow[]> {
  let query = database.db.selectFrom('audit_logs').selectAll().where('id', '>', afterId);
  if (resource) query = query.where('resource', '=', resource);
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => ({
    id: Number(row.id),
    actor_id: Number(row.actor_id),
    actor_name: row.actor_name,
    actor_role: Number(row.actor_role),
    resource: row.resource,
    action: row.action,
    target_id: row.target_id,
    target_name: row.target_name,
    changes: JSON.parse(row.changes) as AuditChanges,
    ip: row.ip,
    raw: JSON.stringify(row),
  }));
}

/** The id of the newest audit row (0 when there is none): a test reads only the rows written after it. */
export async function lastAuditId(database: DatabaseHandle): Promise<number> {
  const row = await database.db
    .selectFrom('audit_logs')
    .select((expression) => expression.fn.max('id').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/**
 * Runs `change` and returns the audit rows it wrote (of `resource`, or of every resource), so each
 * test sees only its own rows whatever ran before it.
 */
export async function auditRowsOf(
  database: DatabaseHandle,
  change: () => Promise<unknown>,
  resource?: AuditResource,
): Promise<AuditRow[]> {
  const before = await lastAuditId(database);
  await change();
  return auditRows(database, resource, before);
}

/** The one row a change wrote, checked to be of `resource` and `action`; throws naming what was found. */
export function onlyRow(rows: readonly AuditRow[], resource: AuditResource, action: AuditAction): AuditRow {
  const [row] = rows;
  if (rows.length !== 1 || !row || row.resource !== resource || row.action !== action) {
    const found = rows.map((entry) => `${entry.resource}/${entry.action}`).join(', ') || 'none';
    throw new Error(`expected one ${resource}/${action} audit row, found: ${found}`);
  }
  return row;
}
