import { type AdminUpdateUserBody, outranks, parseStoredBudgets } from '@one-hub/contracts';
import type { UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';

/** Nobody manages a user of equal or higher role, except root. */
export function assertOutranks(caller: UserRow, target: UserRow): void {
  if (!outranks(caller.role, target.role)) {
    throw AppError.forbidden('permission denied: you cannot manage a user whose role is equal to or higher than yours');
  }
}

/**
 * On the admin route nobody changes their own password, group, role, quota or budgets, root included: a
 * stolen session or access token must not become a new password or a better group. The password
 * is changed on /api/user/self, which asks for the current one. A field sent unchanged (the
 * console sends the group back) is no change.
 */
export function refuseOwnAccessChange(self: UserRow, body: AdminUpdateUserBody, sent: unknown): void {
  const raw = typeof sent === 'object' && sent !== null ? (sent as Record<string, unknown>) : {};
  const changed = [
    body.password ? 'password' : undefined,
    body.group !== undefined && body.group !== self.group ? 'group' : undefined,
    raw.role !== undefined && raw.role !== self.role ? 'role' : undefined,
    raw.quota !== undefined && raw.quota !== Number(self.quota) ? 'quota' : undefined,
    body.budgets !== undefined && JSON.stringify(body.budgets) !== JSON.stringify(parseStoredBudgets(self.budgets))
      ? 'budgets'
      : undefined,
  ].find((field) => field !== undefined);
  if (changed) {
    throw AppError.forbidden(
      `${changed}: permission denied: nobody changes their own password, group, role, quota or budgets on the admin route; ` +
        'change your password on /api/user/self, which asks for the current one',
    );
  }
}
