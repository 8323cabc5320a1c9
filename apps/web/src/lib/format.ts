import { formatQuota, formatTimestamp, type QuotaDisplayOptions, shortenNumber } from '@one-hub/contracts';

/** The two site-info fields that decide how quota is shown (spec §9). */
export function quotaDisplayOptions(siteInfo: {
  quota_per_unit: number;
  display_in_currency: boolean;
}): QuotaDisplayOptions {
  return { quotaPerUnit: siteInfo.quota_per_unit || 500000, displayInCurrency: siteInfo.display_in_currency };
}

/** `YYYY-MM-DD HH:mm:ss` in local time from Unix seconds; '' for 0 or missing ("never"). */
export function formatTime(unixSeconds: number | null | undefined): string {
  return unixSeconds ? formatTimestamp(unixSeconds) : '';
}

export { formatQuota, formatTimestamp, shortenNumber };
