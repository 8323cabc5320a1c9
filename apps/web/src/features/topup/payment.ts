/**
 * Online top-up input checks (spec §5, §9; reference §4.10), free of React so they can be tested.
 * Amounts are whole US dollars. The price itself (discount, fee, exchange rate) is never worked
 * out here: the server quotes it (`GET /api/user/order/quote`) so the browser cannot disagree with
 * what it will charge.
 */
import { ORDER_MAX_AMOUNT } from '@one-hub/contracts';

export type AmountProblem = 'required' | 'integer' | 'positive' | 'belowMinimum' | 'aboveMaximum';

/** Checks the amount field: a positive whole number, at least the site's minimum, at most 1 000 000. */
export function checkAmount(text: string, minimum: number): AmountProblem | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'required';
  if (!/^-?\d+$/.test(trimmed)) return 'integer';
  const amount = Number(trimmed);
  if (amount <= 0) return 'positive';
  if (minimum > 0 && amount < minimum) return 'belowMinimum';
  if (amount > ORDER_MAX_AMOUNT) return 'aboveMaximum';
  return null;
}

/** `RechargeDiscount` from /api/status: a JSON object of amount → multiplier ("100": 0.95). */
export function parseDiscounts(text: string | undefined): Record<string, number> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const discounts: Record<string, number> = {};
    for (const [amount, multiplier] of Object.entries(value)) {
      const number = Number(multiplier);
      if (Number.isFinite(number) && number > 0) discounts[amount] = number;
    }
    return discounts;
  } catch {
    return {};
  }
}

const DEFAULT_PRESETS = [10, 20, 50, 100, 200, 500];

/**
 * The amount chips: the discounted amounts when the site sets any (those are the ones worth
 * picking), otherwise a common ladder; only amounts an order may actually have.
 */
export function presetAmounts(discounts: Record<string, number>, minimum: number): number[] {
  const discounted = Object.keys(discounts)
    .map(Number)
    .filter((amount) => Number.isInteger(amount));
  const amounts = discounted.length > 0 ? discounted : DEFAULT_PRESETS;
  return [...new Set(amounts)]
    .filter((amount) => amount > 0 && amount >= minimum && amount <= ORDER_MAX_AMOUNT)
    .sort((left, right) => left - right);
}

/** Where an order stands as far as the waiting dialog can tell. */
export type OrderState = { state: 'pending' } | { state: 'success' } | { state: 'failed'; message: string };

/**
 * Reads one answer of `GET /api/user/order/status`. The reference answers `success:true` only for
 * a paid order and `success:false` (HTTP 200) while it waits; a 4xx says the order cannot be paid
 * any more (unknown, failed, closed) and carries the reason. A network or server error is not an
 * answer about the order, so the dialog keeps waiting.
 */
export function orderStateOfFailure(status: number, message: string): OrderState {
  if (status >= 400 && status < 500 && status !== 401 && status !== 429) return { state: 'failed', message };
  return { state: 'pending' };
}
