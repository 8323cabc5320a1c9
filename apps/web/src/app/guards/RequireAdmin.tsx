import type { ReactNode } from 'react';
import { ForbiddenPage } from '../../features/errors/ForbiddenPage.js';
import { useSession } from '../../hooks/useSession.js';

/** Admin-only routes: a signed-in user below role 10 sees the 403 screen instead of the page. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { isAdmin } = useSession();
  return isAdmin ? children : <ForbiddenPage />;
}
