import type { OrderQuote, PaymentCurrency } from '@one-hub/contracts';

/**
 * Order money in exact decimal arithmetic (reference §4.10). Rates and fees arrive as JavaScript
 * numbers (options, decimal columns); each is read through its shortest decimal text into an
 * exact fraction, multiplied with big integers, and rounded half up to cents once per step the
 * reference rounds. No float ever carries an amount of money.
 */

/** `units / 10^scale`, exactly. */
interface Decimal {
  units: bigint;
  scale: number;
}

const TEN = 10n;

/** The exact value of a finite number's shortest decimal text (`0.1` is 1/10, not the nearest double). */
export function toDecimal(value: number | string): Decimal {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && !match[3])) throw new Error(`not a decimal number: ${text}`);
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2] || '0'}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

/** Plain positional text for a number, without exponent notation. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Very small or very large numbers: toFixed(20) is exact enough for any rate a setting can hold.
  return value.toFixed(20).replace(/\.?0+$/, '');
}

function multiply(left: Decimal, right: Decimal): Decimal {
  return { units: left.units * right.units, scale: left.scale + right.scale };
}

/** Rounds `value × 10^digits` to an integer, halves away from zero (money here is never negative). */
function roundTo(value: Decimal, digits: number): bigint {
  const shift = value.scale - digits;
  if (shift <= 0) return value.units * TEN ** BigInt(-shift);
  const divisor = TEN ** BigInt(shift);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  const rounded = (magnitude * 2n + divisor) / (divisor * 2n);
  return negative ? -rounded : rounded;
}

const cents = (value: bigint): Decimal => ({ units: value, scale: 2 });

/** Cents of a decimal column's value (a number on SQLite, a string on PostgreSQL and MySQL). */
export function centsOf(value: number | string): number {
  return Number(roundTo(toDecimal(value), 2));
}

/** `1234` → `"12.34"`: how amounts are written to decimal columns and sent to vendors. */
export function centsText(value: number): string {
  const sign = value < 0 ? '-' : '';
  const magnitude = Math.abs(value);
  return `${sign}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
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
  const amountCents = BigInt(inputs.amount) * 100n;
  const rate = toDecimal(inputs.discountRate);
  const netCents = roundTo(multiply(cents(amountCents), rate), 2);
  const percent = toDecimal(inputs.percentFee);
  let feeUsdCents = 0n;
  if (percent.units > 0n) feeUsdCents = roundTo(multiply(cents(netCents), percent), 2);
  else feeUsdCents = BigInt(centsOf(inputs.fixedFee));
  const totalUsdCents = netCents + feeUsdCents;
  const toCurrency = (usdCents: bigint): bigint =>
    inputs.currency === 'USD' ? usdCents : roundTo(multiply(cents(usdCents), toDecimal(inputs.usdRate)), 2);
  return {
    amount: inputs.amount,
    discountRate: inputs.discountRate,
    feeCents: Number(toCurrency(feeUsdCents)),
    discountCents: Number(toCurrency(amountCents - netCents)),
    payCents: Number(toCurrency(totalUsdCents)),
    currency: inputs.currency,
    quota: Number(roundTo(multiply(toDecimal(inputs.amount), toDecimal(inputs.quotaPerUnit)), 0)),
  };
}

/** The multiplier RechargeDiscount gives an amount (its JSON keyed by the amount's text), 1 when none or invalid. */
export function discountRateFor(rechargeDiscount: string, amount: number): number {
  try {
    const table = JSON.parse(rechargeDiscount || '{}') as Record<string, unknown>;
    const rate = table[String(amount)];
    return typeof rate === 'number' && rate > 0 && rate <= 1 ? rate : 1;
  } catch {
    return 1;
  }
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
