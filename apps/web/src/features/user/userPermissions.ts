import { isAdminRole, isRootRole, Role } from '@one-hub/contracts';

/** What the signed-in administrator may do to one user row. */
export interface UserPermissions {
  /** On the caller's own row: the display name only (see `ownEditFields`). */
  edit: boolean;
  quota: boolean;
  /** Enable or disable. */
  status: boolean;
  delete: boolean;
  /** Make an administrator. */
  promote: boolean;
  /** Back to a common user: cancels administrator (root only) or reliable status. */
  demote: boolean;
  /** Make a reliable user (role 3). */
  setReliable: boolean;
}

interface Someone {
  id: number;
  role: number;
}

/**
 * The server's rules, mirrored so the console offers only what would succeed: nobody manages a
 * user of the same or a higher role except root; root itself is never disabled, deleted or
 * re-roled; only root makes or unmakes administrators; any administrator makes a user it
 * outranks reliable, or common again. On its own row a caller edits its display name (the
 * server refuses its own password, group, role and quota there: those are on the profile
 * screen, or another administrator's); root alone may still adjust its own balance.
 */
export function permissionsFor(caller: Someone, target: Someone): UserPermissions {
  const callerIsRoot = isRootRole(caller.role);
  const outranks = callerIsRoot || target.role < caller.role;
  const targetIsRoot = isRootRole(target.role);
  const changeable = outranks && !targetIsRoot && caller.id !== target.id;
  return {
    edit: outranks || caller.id === target.id,
    quota: outranks,
    status: changeable,
    delete: changeable,
    promote: callerIsRoot && !targetIsRoot && !isAdminRole(target.role),
    demote: changeable && target.role > Role.common,
    setReliable: changeable && target.role !== Role.reliable,
  };
}

export function canDoAnything(permissions: UserPermissions): boolean {
  return Object.values(permissions).some(Boolean);
}
