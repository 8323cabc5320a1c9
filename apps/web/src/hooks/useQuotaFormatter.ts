import { formatQuota, formatQuotaTick } from '@one-hub/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { quotaDisplayOptions } from '../lib/format.js';
import { useSiteInfo } from './useSiteInfo.js';

export interface QuotaFormatter {
  /**
   * `$2.47` when the site shows currency, else `1.2M` / `12.3k` / `999`; below a cent the
   * significant digits ($0.000298), never $0.00. `precise` is for the cost of one request: up to
   * 6 decimals from a cent up ($0.012345).
   */
  (quota: number, precise?: boolean): string;
  /** In currency mode, the '（等价金额：$2.47）' note to put after a raw quota number; '' otherwise. */
  equivalent(quota: number): string;
  /** A chart axis tick: significant digits up to a dollar so neighbouring ticks differ. */
  tick(quota: number): string;
  displayInCurrency: boolean;
}

/** Formats quota with the site's quota_per_unit and display_in_currency (spec §9). */
export function useQuotaFormatter(): QuotaFormatter {
  const siteInfo = useSiteInfo();
  const { t } = useTranslation();
  const { quota_per_unit: quotaPerUnit, display_in_currency: displayInCurrency } = siteInfo;

  return useMemo(() => {
    const options = quotaDisplayOptions({ quota_per_unit: quotaPerUnit, display_in_currency: displayInCurrency });
    const preciseOptions = { ...options, digits: 6 };
    const format = ((quota: number, precise?: boolean) =>
      formatQuota(quota, precise ? preciseOptions : options)) as QuotaFormatter;
    format.equivalent = (quota: number) =>
      options.displayInCurrency ? t('common:quota.equivalent', { amount: formatQuota(quota, options) }) : '';
    format.tick = (quota: number) => formatQuotaTick(quota, options);
    format.displayInCurrency = options.displayInCurrency;
    return format;
  }, [quotaPerUnit, displayInCurrency, t]);
}
