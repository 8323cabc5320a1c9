import { isAdminRole, isRootRole } from '@one-hub/contracts';

/** What the signed-in administrator may do to one user row. */
export interface UserPermissions {
  edit: boolean;
  quota: boolean;
  /** Enable or disable. */
  status: boolean;
  delete: boolean;
  /** Make an administrator. */
  promote: boolean;
  /** Cancel administrator. */
  demote: boolean;
}

interface Someone {
  id: number;
  role: number;
}

/**
 * The server's rules, mirrored so the console offers only what would succeed: nobody manages a
 * user of the same or a higher role except root; root itself is never disabled, deleted or
 * re-roled; only root makes or unmakes administrators. Administrators edit themselves on the
 * profile screen, so their own row offers nothing here.
 */
export function permissionsFor(caller: Someone, target: Someone): UserPermissions {
  const callerIsRoot = isRootRole(caller.role);
  const outranks = callerIsRoot || target.role < caller.role;
  const targetIsRoot = isRootRole(target.role);
  const changeable = outranks && !targetIsRoot;
  return {
    edit: outranks,
    quota: outranks,
    status: changeable,
    delete: changeable,
    promote: callerIsRoot && !targetIsRoot && !isAdminRole(target.role),
    demote: callerIsRoot && !targetIsRoot && isAdminRole(target.role),
  };
}

export function canDoAnything(permissions: UserPermissions): boolean {
  return Object.values(permissions).some(Boolean);
}
