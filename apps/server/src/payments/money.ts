import { type OrderQuote, type PaymentCurrency, parseJsonObject } from '@one-hub/contracts';
import Big from 'big.js';

/**
 * Order money in exact decimal arithmetic (reference §4.10), with big.js: rates and fees arrive
 * as JavaScript numbers (options) or decimal text (decimal columns); each is read through its
 * shortest decimal text, so 0.1 is one tenth and not the nearest double, and rounded half up to
 * cents once per step the reference rounds. No float ever carries an amount of money.
 */

/** The exact value of a number's shortest decimal text, or of a decimal column's text. */
function decimal(value: number | string): Big {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  try {
    return new Big(typeof value === 'number' ? value : value.trim());
  } catch {
    throw new Error(`not a decimal number: ${String(value)}`);
  }
}

/** Rounds to `places` decimals, halves away from zero (money here is never negative). */
const rounded = (value: Big, places: number): Big => value.round(places, Big.roundHalfUp);

/** A whole number of cents as a plain number (they stay far below 2^53). */
const wholeCents = (value: Big): number => rounded(value.times(100), 0).toNumber();

/** Cents of a decimal column's value (a number on SQLite, a string on PostgreSQL and MySQL). */
export function centsOf(value: number | string): number {
  return wholeCents(decimal(value));
}

/** `1234` → `"12.34"`: how amounts are written to decimal columns and sent to vendors. */
export function centsText(value: number): string {
  return new Big(value).div(100).toFixed(2);
}

/** `1234` → `12.34` for JSON answers; exact because it parses the two-decimal text. */
export function centsToNumber(value: number): number {
  return Number(centsText(value));
}

export interface PriceInputs {
  /** Whole US dollars asked for. */
  amount: number;
  /** RechargeDiscount's multiplier for this amount, 1 when none. */
  discountRate: number;
  /** Gateway fees: a fraction of the discounted amount, else a fixed fee in US dollars. */
  percentFee: number | string;
  fixedFee: number | string;
  currency: PaymentCurrency;
  /** CNY per USD (PaymentUSDRate); only read for CNY gateways. */
  usdRate: number;
  quotaPerUnit: number;
}

/** Everything an order stores about its money, in cents of the gateway currency (quota in quota units). */
export interface Price {
  amount: number;
  discountRate: number;
  feeCents: number;
  discountCents: number;
  payCents: number;
  currency: PaymentCurrency;
  quota: number;
}

/**
 * The reference's order arithmetic, made exact. Deliberate differences: the fee and the discount
 * are reported in the gateway's currency like the amount charged, and the discount is what the
 * RechargeDiscount saved (the reference's `base - pay` mixes in the fee and can go negative).
 */
export function priceOrder(inputs: PriceInputs): Price {
  const amount = new Big(inputs.amount);
  const net = rounded(amount.times(decimal(inputs.discountRate)), 2);
  const percent = decimal(inputs.percentFee);
  const feeUsd = percent.gt(0) ? rounded(net.times(percent), 2) : rounded(decimal(inputs.fixedFee), 2);
  const inCurrency = (usd: Big): number =>
    wholeCents(inputs.currency === 'USD' ? usd : rounded(usd.times(decimal(inputs.usdRate)), 2));
  return {
    amount: inputs.amount,
    discountRate: inputs.discountRate,
    feeCents: inCurrency(feeUsd),
    discountCents: inCurrency(amount.minus(net)),
    payCents: inCurrency(net.plus(feeUsd)),
    currency: inputs.currency,
    quota: rounded(amount.times(decimal(inputs.quotaPerUnit)), 0).toNumber(),
  };
}

export interface PlanPriceInputs {
  /** The plan's price in `priceCurrency`, two decimals at most. */
  price: number | string;
  priceCurrency: PaymentCurrency;
  percentFee: number | string;
  /** In US dollars, as for top-ups. */
  fixedFee: number | string;
  /** The gateway's currency. */
  currency: PaymentCurrency;
  usdRate: number;
}

/**
 * A plan's order (issue 33): a price in US dollars goes through the top-up arithmetic exactly
 * (fees and all; no RechargeDiscount, no quota). A price in yuan is charged as it is on a yuan
 * gateway and converted at PaymentUSDRate for a dollar one; the percent fee is then taken on the
 * amount in the gateway's currency and the fixed fee converted as the top-up converts it.
 */
export function pricePlan(inputs: PlanPriceInputs): Price {
  const fees = { percentFee: inputs.percentFee, fixedFee: inputs.fixedFee, currency: inputs.currency };
  if (inputs.priceCurrency === 'USD') {
    const amount = Number(inputs.price);
    const priced = priceOrder({ ...fees, amount, discountRate: 1, usdRate: inputs.usdRate, quotaPerUnit: 0 });
    return { ...priced, amount: 0 };
  }
  const rate = decimal(inputs.usdRate);
  const price = rounded(decimal(inputs.price), 2);
  const net = inputs.currency === 'CNY' ? price : rounded(price.div(rate), 2);
  const fixed = rounded(decimal(inputs.fixedFee), 2);
  const fixedInCurrency = inputs.currency === 'CNY' ? rounded(fixed.times(rate), 2) : fixed;
  const percent = decimal(inputs.percentFee);
  const fee = percent.gt(0) ? rounded(net.times(percent), 2) : fixedInCurrency;
  return {
    amount: 0,
    discountRate: 1,
    feeCents: wholeCents(fee),
    discountCents: 0,
    payCents: wholeCents(net.plus(fee)),
    currency: inputs.currency,
    quota: 0,
  };
}

/** The multiplier RechargeDiscount gives an amount (its JSON keyed by the amount's text), 1 when none or invalid. */
export function discountRateFor(rechargeDiscount: string, amount: number): number {
  const rate = parseJsonObject(rechargeDiscount || '{}')?.[String(amount)];
  return typeof rate === 'number' && rate > 0 && rate <= 1 ? rate : 1;
}

export function toQuote(price: Price): OrderQuote {
  return {
    amount: price.amount,
    discount_rate: price.discountRate,
    fee: centsToNumber(price.feeCents),
    discount: centsToNumber(price.discountCents),
    order_amount: centsToNumber(price.payCents),
    currency: price.currency,
    quota: price.quota,
  };
}
