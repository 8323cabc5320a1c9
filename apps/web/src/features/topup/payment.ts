/**
 * Online top-up arithmetic (spec §5, §9; reference §4.10), free of React so it can be tested.
 * Amounts are whole US dollars; the server bills `amount × quota_per_unit` quota.
 */

/** The largest amount one order may buy (spec §9). */
export const MAX_TOP_UP_AMOUNT = 1_000_000;

/** A gateway as `GET /api/user/payment` lists it (only these fields are filled). */
export interface PaymentGateway {
  uuid: string;
  name: string;
  icon: string;
  /** A fraction: 0.05 is 5 %. */
  percent_fee: number;
  /** In US dollars. */
  fixed_fee: number;
  /** "USD" or "CNY". */
  currency: string;
  sort: number;
}

/** `POST /api/user/order` → data: type 1 sends the browser to `url` (form fields in `params`), type 2 shows a code. */
export interface PaymentOrder {
  trade_no: string;
  type: number;
  data: { url: string; method?: string; params?: Record<string, string | number> };
}

export type AmountProblem = 'required' | 'integer' | 'positive' | 'belowMinimum' | 'aboveMaximum';

/** Checks the amount field: a positive whole number, at least the site's minimum, at most 1 000 000. */
export function checkAmount(text: string, minimum: number): AmountProblem | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'required';
  if (!/^-?\d+$/.test(trimmed)) return 'integer';
  const amount = Number(trimmed);
  if (amount <= 0) return 'positive';
  if (minimum > 0 && amount < minimum) return 'belowMinimum';
  if (amount > MAX_TOP_UP_AMOUNT) return 'aboveMaximum';
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

const round2 = (value: number) => Math.round(value * 100) / 100;

export interface PaymentQuote {
  /** The multiplier applied (1 = no discount). */
  discount: number;
  /** The fee in the payment currency. */
  fee: number;
  /** What the user pays, in `currency`. */
  pay: number;
  /** What the discount saves, in `currency`. */
  saved: number;
  currency: string;
}

/**
 * The price of `amount` dollars through `gateway`: discount first, then the percent fee (or the
 * fixed fee), then the exchange rate for non-dollar gateways.
 */
export function quotePayment(
  amount: number,
  gateway: Pick<PaymentGateway, 'percent_fee' | 'fixed_fee' | 'currency'>,
  discounts: Record<string, number>,
  usdRate: number,
): PaymentQuote {
  const discount = discounts[String(amount)] ?? 1;
  const net = amount * discount;
  let base = amount;
  let fee = 0;
  if (gateway.percent_fee > 0) {
    fee = round2(net * gateway.percent_fee);
    base = round2(amount * (1 + gateway.percent_fee));
  } else if (gateway.fixed_fee > 0) {
    fee = gateway.fixed_fee;
    base = amount + fee;
  }
  let pay = round2(net + fee);
  const currency = gateway.currency || 'USD';
  if (currency !== 'USD') {
    const rate = usdRate > 0 ? usdRate : 1;
    base = round2(base * rate);
    pay = round2(pay * rate);
    fee = round2(fee * rate);
  }
  return { discount, fee, pay, saved: Math.max(0, round2(base - pay)), currency };
}

/** "$12.50" or "¥90.00". */
export function formatMoney(value: number, currency: string): string {
  const symbol = currency === 'CNY' ? '¥' : currency === 'USD' ? '$' : '';
  const text = value.toFixed(2);
  return symbol ? `${symbol}${text}` : `${text} ${currency}`;
}
