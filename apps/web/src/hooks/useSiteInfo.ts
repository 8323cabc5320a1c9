import { useAppState } from '../app/state/AppStateProvider.js';
import type { SiteInfoState } from '../app/state/siteInfo.js';

/** The site info of `/api/status` (or the stored copy, or the defaults); never null. */
export function useSiteInfo(): SiteInfoState {
  return useAppState().siteInfo;
}
