import { z } from 'zod';
import { exportFormat } from './export.js';
import { pageQuery, unixSecondsFilter } from './paging.js';

/**
 * What the audit log records (issue 36): every change made through the management API, by resource.
 * `balance` is a user's quota changed by an administrator; `budget` a budget window list set on a user,
 * a user group or a key; `option` a setting.
 */
export const AUDIT_RESOURCES = [
  'channel',
  'user',
  'balance',
  'user_group',
  'price',
  'option',
  'payment',
  'redemption',
  'token',
  'plan',
  'budget',
  'model_info',
  'telegram',
] as const;
export type AuditResource = (typeof AUDIT_RESOURCES)[number];

/**
 * What was done to the target. `move` is a key given to another user; `promote` and `demote` a
 * user's role raised or lowered (POST /api/user/manage); `end` a plan's subscription ended early.
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'move',
  'enable',
  'disable',
  'grant',
  'end',
  'cancel',
  'promote',
  'demote',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One changed field: its value before and after (absent on create / delete), or only `secret` for a secret. */
export interface AuditFieldChange {
  before?: unknown;
  after?: unknown;
  /** A secret (a channel key, a payment gateway's credentials): it changed, its values are never kept. */
  secret?: true;
}
export type AuditChanges = Record<string, AuditFieldChange>;

/** One audit row as the API answers it. */
export interface AuditLogItem {
  id: number;
  created_at: number;
  actor_id: number;
  actor_name: string;
  actor_role: number;
  resource: AuditResource;
  action: AuditAction;
  target_id: string;
  target_name: string;
  changes: AuditChanges;
  ip: string;
  request_id: string;
}

/** The console sends an unset filter as an empty value. */
function emptyAsAbsent(value: unknown): unknown {
  return value === '' ? undefined : value;
}

/** Filters of `GET /api/audit/` (and its export); empty values mean "no filter". */
export const auditFilterQuery = z.object({
  resource: z.preprocess(
    emptyAsAbsent,
    z.enum(AUDIT_RESOURCES, `resource must be one of ${AUDIT_RESOURCES.join(', ')}`).optional(),
  ),
  action: z.preprocess(
    emptyAsAbsent,
    z.enum(AUDIT_ACTIONS, `action must be one of ${AUDIT_ACTIONS.join(', ')}`).optional(),
  ),
  /** 0 or empty: any actor. */
  actor_id: z.coerce
    .number('actor_id must be a number')
    .int('actor_id must be an integer')
    .min(0, 'actor_id must not be negative')
    .max(2_147_483_647, 'actor_id is too large')
    .optional(),
  target_id: z.string().trim().max(64, 'target_id must be at most 64 characters').optional(),
  start_timestamp: unixSecondsFilter('start_timestamp'),
  end_timestamp: unixSecondsFilter('end_timestamp'),
});
export type AuditFilterQuery = z.infer<typeof auditFilterQuery>;

export const auditListQuery = pageQuery.extend(auditFilterQuery.shape);
export type AuditListQuery = z.infer<typeof auditListQuery>;

/** `GET /api/audit/export`: the list's filters, every matching row newest first, as csv or jsonl. */
export const auditExportQuery = auditFilterQuery.extend({ format: exportFormat });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;
