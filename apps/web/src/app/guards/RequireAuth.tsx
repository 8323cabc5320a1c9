import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSelf } from '../../hooks/useSelf.js';
import { useSession } from '../../hooks/useSession.js';

/**
 * Renders `children` only when a user is stored (spec §4: no user → /login). It also asks the
 * server who is signed in: a 401 ends the session, and fresh name, role or avatar are kept.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, refreshUser } = useSession();
  const location = useLocation();
  const self = useSelf({ enabled: user !== null, staleTime: 30_000 });
  const fresh = self.data;

  useEffect(() => {
    if (!fresh || !user) return;
    const changed =
      fresh.role !== user.role ||
      fresh.username !== user.username ||
      fresh.display_name !== user.display_name ||
      fresh.avatar_url !== user.avatar_url;
    if (changed) {
      const { id, username, display_name, role, status, avatar_url } = fresh;
      refreshUser({ id, username, display_name, role, status, avatar_url });
    }
  }, [fresh, user, refreshUser]);

  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}
