import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppActions } from '../../app/state/AppStateProvider.js';
import { mergeSiteInfo, readStoredSiteInfo, storeSiteInfo } from '../../app/state/siteInfo.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { applyServerLanguage } from '../../i18n/index.js';
import { notify } from '../../lib/notify.js';
import { useStatusQuery } from './site.api.js';

const NEW_VERSION_NOTICE = 'new-version';

/**
 * Loads `/api/status` and `/api/user_group_map` at start (spec §7). On success the site info is
 * saved, the server's language applied and the title set; on failure the stored copy is used and
 * 'Unable to connect to the server correctly!' shown. When a later answer names another server
 * version than the one that served the page, a notice asks for a reload (spec §9's catalogued text).
 */
export function SiteBootstrap({ children }: { children: ReactNode }) {
  const status = useStatusQuery();
  useUserGroupMap();
  const { setSiteInfo } = useAppActions();
  const { t } = useTranslation();
  const siteInfo = useSiteInfo();

  useEffect(() => {
    if (!status.data) return;
    storeSiteInfo(status.data);
    applyServerLanguage(status.data.language);
    setSiteInfo(mergeSiteInfo(status.data, false));
  }, [status.data, setSiteInfo]);

  useEffect(() => {
    if (!status.isError) return;
    setSiteInfo(mergeSiteInfo(readStoredSiteInfo(), false));
    notify.error(t('error.serverUnreachable'));
  }, [status.isError, setSiteInfo, t]);

  // The server was updated since it served this page: the loaded console may no longer match it.
  const serverVersion = status.data?.version;
  useEffect(() => {
    const loadedVersion = window.__ONE_HUB_VERSION__;
    if (!serverVersion || !loadedVersion || serverVersion === loadedVersion) return;
    notify.persistent(<span data-testid="new-version-notice">{t('newVersion')}</span>, 'info', NEW_VERSION_NOTICE);
  }, [serverVersion, t]);

  useEffect(() => {
    if (siteInfo.system_name) document.title = siteInfo.system_name;
  }, [siteInfo.system_name]);

  return children;
}
