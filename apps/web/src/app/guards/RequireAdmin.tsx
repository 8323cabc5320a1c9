import type { ReactNode } from 'react';
import { ForbiddenPage } from '../../features/errors/ForbiddenPage.js';
import { useSession } from '../../hooks/useSession.js';
import { clearanceOf } from '../menu/menu.js';

/**
 * Admin-only routes: a signed-in user below role 10 sees the 403 screen instead of the page; with
 * `root`, so does every administrator but the super administrator.
 */
export function RequireAdmin({ children, root = false }: { children: ReactNode; root?: boolean | undefined }) {
  const clearance = clearanceOf(useSession().user?.role);
  const allowed = root ? clearance === 'root' : clearance !== 'user';
  return allowed ? children : <ForbiddenPage rootOnly={root} />;
}
