import { type AuditAction, isRootRole, type ManageUserBody, Role, UserStatus } from '@one-hub/contracts';
import type { Executor, UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { UserRepository } from './repo.js';

/**
 * One action of POST /api/user/manage on a user the caller outranks, written with `transaction`;
 * answers the user's role and status after it.
 */
export async function applyManageAction(
  users: UserRepository,
  { caller, target, action }: { caller: UserRow; target: UserRow; action: ManageUserBody['action'] },
  transaction: Executor,
): Promise<{ role: number; status: number }> {
  switch (action) {
    case 'disable':
      // Its sessions end for good: enabling the user again later does not bring them back.
      await users.revokeSessions(target.id, { status: UserStatus.disabled }, transaction);
      return { role: target.role, status: UserStatus.disabled };
    case 'enable':
      await users.update(target.id, { status: UserStatus.enabled }, transaction);
      return { role: target.role, status: UserStatus.enabled };
    case 'delete':
      await users.softDelete(target, transaction);
      return { role: target.role, status: target.status };
    case 'promote':
      if (!isRootRole(caller.role)) throw AppError.forbidden('permission denied: only root can make a user an admin');
      if (target.role >= Role.admin) throw AppError.badRequest('action: this user is already an admin');
      await users.update(target.id, { role: Role.admin }, transaction);
      return { role: Role.admin, status: target.status };
    case 'demote':
      if (target.role <= Role.common) throw AppError.badRequest('action: this user is already a common user');
      await users.update(target.id, { role: Role.common }, transaction);
      return { role: Role.common, status: target.status };
    case 'set_reliable':
      // Any administrator may, on a user it outranks (root also on an admin, as the reference allows).
      if (target.role === Role.reliable) throw AppError.badRequest('action: this user is already a reliable user');
      await users.update(target.id, { role: Role.reliable }, transaction);
      return { role: Role.reliable, status: target.status };
  }
}

/** How the audit log names a manage action: `set_reliable` raises a common user and lowers an admin. */
export function manageAuditAction(
  action: ManageUserBody['action'],
  target: UserRow,
  applied: { role: number },
): AuditAction {
  if (action === 'set_reliable') return applied.role > target.role ? 'promote' : 'demote';
  return action;
}
