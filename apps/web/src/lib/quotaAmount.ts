import { quotaDisplayOptions } from './format.js';

/**
 * How amounts of quota are typed in the console: in US dollars when the site shows currency
 * (`DisplayInCurrencyEnabled`), otherwise in raw quota. Every form that takes an amount uses it,
 * so a balance and a key's quota are typed in one unit.
 */
export interface QuotaUnit {
  /** True when the amount is typed in US dollars (the site shows currency). */
  currency: boolean;
  quotaPerUnit: number;
}

export function quotaUnitOf(siteInfo: { quota_per_unit: number; display_in_currency: boolean }): QuotaUnit {
  const display = quotaDisplayOptions(siteInfo);
  return { currency: display.displayInCurrency, quotaPerUnit: display.quotaPerUnit };
}

/** The quota a typed amount stands for (always ≥ 0), or NaN when it is not a usable number. */
export function amountToQuota(amount: string, unit: QuotaUnit): number {
  const text = amount.trim();
  if (text === '' || !/^\d*\.?\d*$/.test(text)) return Number.NaN;
  const value = Number(text);
  if (!Number.isFinite(value)) return Number.NaN;
  if (unit.currency) return Math.round(value * unit.quotaPerUnit);
  return Number.isInteger(value) ? value : Number.NaN;
}

/** How a stored quota is shown in an amount field; typed back unchanged, it gives the same quota. */
export function quotaToAmount(quota: number, unit: QuotaUnit): string {
  return unit.currency ? String(quota / unit.quotaPerUnit) : String(quota);
}
