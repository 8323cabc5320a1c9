import { optionDefinitions, type QuotaDisplayOptions, type SiteInfo } from '@one-hub/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { strings } from '../../i18n/strings.js';
import { api } from '../../lib/api.js';
import { isRecord, readJson, storageKeys, writeJson } from '../../lib/storage.js';

export const siteInfoQueryKey = ['site', 'status'] as const;

function isSiteInfo(value: unknown): value is SiteInfo {
  return isRecord(value) && typeof value.system_name === 'string';
}

export function readStoredSiteInfo(): SiteInfo | null {
  return readJson(storageKeys.siteInfo, isSiteInfo);
}

async function fetchSiteInfo(): Promise<SiteInfo> {
  const info = await api.get<SiteInfo>('/api/status');
  writeJson(storageKeys.siteInfo, info);
  return info;
}

export interface SiteInfoState {
  /** The live status, else the copy stored by an earlier visit, else null. */
  siteInfo: SiteInfo | null;
  isLoading: boolean;
  isUnreachable: boolean;
}

export function useSiteInfo(): SiteInfoState {
  const [stored] = useState(readStoredSiteInfo);
  const query = useQuery({ queryKey: siteInfoQueryKey, queryFn: fetchSiteInfo, staleTime: 5 * 60_000 });
  return {
    siteInfo: query.data ?? stored,
    isLoading: query.isPending,
    isUnreachable: query.isError,
  };
}

export function siteName(siteInfo: SiteInfo | null): string {
  return siteInfo?.system_name || strings.app.defaultName;
}

export function quotaDisplayOptions(siteInfo: SiteInfo | null): QuotaDisplayOptions {
  return {
    quotaPerUnit: siteInfo?.quota_per_unit || Number(optionDefinitions.QuotaPerUnit.default),
    displayInCurrency: siteInfo?.display_in_currency ?? optionDefinitions.DisplayInCurrencyEnabled.default === 'true',
  };
}
