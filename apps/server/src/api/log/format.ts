import type { OptionService } from '../option/service.js';

/** How an amount is written inside log texts: dollars in currency mode, else raw quota points. */
export function logQuota(quota: number, options: OptionService): string {
  if (options.getBoolean('DisplayInCurrencyEnabled')) {
    return `＄${(quota / options.getNumber('QuotaPerUnit')).toFixed(6)} 额度`;
  }
  return `${quota} 点额度`;
}
