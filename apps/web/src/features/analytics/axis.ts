import { formatQuota, type QuotaDisplayOptions } from '@one-hub/contracts';

/**
 * A quota axis tick. Ticks are round numbers that can be far below a cent, so in currency mode
 * they keep two significant digits ($0.005, $0.013) where the site's two decimals would print
 * $0.00 on every line.
 */
export function quotaTick(quota: number, options: QuotaDisplayOptions): string {
  if (!options.displayInCurrency || quota === 0) return formatQuota(quota, options);
  const amount = Math.abs(quota / (options.quotaPerUnit || 1));
  const digits = amount >= 1 ? 2 : Math.min(6, Math.max(2, 1 - Math.floor(Math.log10(amount))));
  return formatQuota(quota, { ...options, digits });
}
