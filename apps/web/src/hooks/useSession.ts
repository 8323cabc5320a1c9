import { isAdminRole } from '@one-hub/contracts';
import { useAppActions, useAppState } from '../app/state/AppStateProvider.js';
import type { SessionUser } from '../lib/session.js';

export interface Session {
  user: SessionUser | null;
  isSignedIn: boolean;
  /** Role 10 or higher (spec §6). */
  isAdmin: boolean;
  login(user: SessionUser): void;
  refreshUser(user: SessionUser): void;
  logout(): void;
}

/** The signed-in user and the login/logout actions. The server remains the judge of every permission. */
export function useSession(): Session {
  const { user } = useAppState();
  const { login, refreshUser, logout } = useAppActions();
  return { user, isSignedIn: user !== null, isAdmin: isAdminRole(user?.role), login, refreshUser, logout };
}
