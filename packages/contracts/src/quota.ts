import { z } from 'zod';

/**
 * The largest quota any balance, code, key or adjustment may hold: 10^15 quota units (two billion
 * US dollars at the default 500 000 per dollar). Well below 2^53, so a sum of two such values is
 * still an exact integer in JavaScript and in every database column; nothing past it is stored.
 */
export const MAX_QUOTA = 1_000_000_000_000_000;

/** A whole quota amount from 0 to `MAX_QUOTA`; every message names `field`. */
export function quotaAmountField(field: string) {
  return z
    .number(`${field} must be a number`)
    .int(`${field} must be an integer`)
    .min(0, `${field} must be at least 0`)
    .max(MAX_QUOTA, `${field} must be at most ${MAX_QUOTA}`);
}
