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

/** "$12.50" or "¥90.00": the server's amounts carry two decimals at most. */
export function formatPaymentAmount(value: number, currency: string): string {
  const symbol = currency === 'CNY' ? '¥' : currency === 'USD' ? '$' : '';
  const text = value.toFixed(2);
  return symbol ? `${symbol}${text}` : `${text} ${currency}`;
}

const usdFormats = new Map<number, Intl.NumberFormat>();

/**
 * Dollars with cents always shown and small prices kept readable, never in scientific notation:
 * `$0.003`, `$3.00`, `$0.000015`. `maxDecimals` is how far a tiny price is written out (the
 * administrators' price table goes to 8, for prices like `$0.0000002`).
 */
export function formatUsd(value: number, maxDecimals = 6): string {
  let format = usdFormats.get(maxDecimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 2,
      maximumFractionDigits: maxDecimals,
    });
    usdFormats.set(maxDecimals, format);
  }
  return format.format(value);
}
