/** Numeric roles, compatible with the reference system's `users.role`. */
export const Role = {
  common: 1,
  /** A trusted user ("reliable", trusted internal staff): more than common, still below admin. */
  reliable: 3,
  admin: 10,
  root: 100,
} as const;
export type Role = (typeof Role)[keyof typeof Role];

export const UserStatus = {
  enabled: 1,
  disabled: 2,
} as const;
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];

/** Log types of the `logs` table. */
export const LogType = {
  unknown: 0,
  topup: 1,
  consume: 2,
  manage: 3,
  system: 4,
  /** A relay request that failed after every retry (new-api's number for it): no charge, shown to find failing channels. */
  error: 5,
} as const;
export type LogType = (typeof LogType)[keyof typeof LogType];

export const DEFAULT_GROUP = 'default';

export function isAdminRole(role: number | undefined | null): boolean {
  return (role ?? 0) >= Role.admin;
}

export function isRootRole(role: number | undefined | null): boolean {
  return (role ?? 0) >= Role.root;
}

/**
 * Whether a user of `callerRole` may manage (read, edit, move keys of) a user of `targetRole`:
 * root manages everyone, anyone else only users of a strictly lower role (so an admin manages
 * reliable users, and a reliable user, below admin, manages nobody).
 */
export function outranks(callerRole: number, targetRole: number): boolean {
  return isRootRole(callerRole) || targetRole < callerRole;
}

export function isReliableRole(role: number | undefined | null): boolean {
  return (role ?? 0) >= Role.reliable;
}

export function roleName(role: number): 'root' | 'admin' | 'reliable' | 'common' | 'unknown' {
  if (role >= Role.root) return 'root';
  if (role >= Role.admin) return 'admin';
  if (role >= Role.reliable) return 'reliable';
  if (role >= Role.common) return 'common';
  return 'unknown';
}
