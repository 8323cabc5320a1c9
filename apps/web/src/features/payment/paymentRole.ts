import { isRootRole } from '@one-hub/contracts';
import { useSession } from '../../hooks/useSession.js';

/**
 * Whether the signed-in user is root: only root may add or delete a gateway or change its type,
 * settings or notify domain (the server answers anyone else 403), so nothing else offers them.
 */
export function useIsRoot(): boolean {
  return isRootRole(useSession().user?.role);
}
