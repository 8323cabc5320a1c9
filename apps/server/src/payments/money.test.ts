import { describe, expect, it } from 'vitest';
import { centsOf, centsText, discountRateFor, type PriceInputs, priceOrder, pricePlan, toQuote } from './money.js';

const base: PriceInputs = {
  amount: 10,
  discountRate: 1,
  percentFee: 0,
  fixedFee: 0,
  currency: 'USD',
  usdRate: 7.3,
  quotaPerUnit: 500_000,
};

describe('order money (reference §4.10) in integer cents', () => {
  it('charges the amount itself with no discount and no fee, and credits amount × QuotaPerUnit', () => {
    expect(priceOrder(base)).toEqual({
      amount: 10,
      discountRate: 1,
      feeCents: 0,
      discountCents: 0,
      payCents: 1000,
      currency: 'USD',
      quota: 5_000_000,
    });
  });

  it('rounds a percent fee half up where binary floats would round it down (9.50 × 3% = 0.285 → 0.29)', () => {
    const price = priceOrder({ ...base, discountRate: 0.95, percentFee: 0.03 });
    expect(price.feeCents).toBe(29);
    expect(price.discountCents).toBe(50);
    expect(price.payCents).toBe(979);
  });

  it('rounds the discounted amount half up (1 × 0.985 = 0.985 → 0.99)', () => {
    const price = priceOrder({ ...base, amount: 1, discountRate: 0.985 });
    expect(price.payCents).toBe(99);
    expect(price.discountCents).toBe(1);
  });

  it('adds a fixed fee in US dollars when there is no percent fee, read from a decimal column string', () => {
    const price = priceOrder({ ...base, amount: 20, fixedFee: '0.50' });
    expect(price.feeCents).toBe(50);
    expect(price.payCents).toBe(2050);
  });

  it('ignores the fixed fee when a percent fee is set, as the reference does', () => {
    const price = priceOrder({ ...base, amount: 20, percentFee: '0.10', fixedFee: '5.00' });
    expect(price.feeCents).toBe(200);
    expect(price.payCents).toBe(2200);
  });

  it('converts to CNY by PaymentUSDRate after adding the fee, rounding each converted figure', () => {
    // 7.00 + 1% = 7.07 USD; × 7.3 = 51.611 → 51.61 CNY; the fee 0.07 × 7.3 = 0.511 → 0.51.
    const price = priceOrder({ ...base, amount: 7, percentFee: 0.01, currency: 'CNY' });
    expect(price.payCents).toBe(5161);
    expect(price.feeCents).toBe(51);
    expect(price.currency).toBe('CNY');
  });

  it('converts the discount to CNY too', () => {
    // 100 × 0.9 = 90 USD saved 10 USD; 90 × 6.95 = 625.50 CNY; 10 × 6.95 = 69.50 CNY.
    const price = priceOrder({ ...base, amount: 100, discountRate: 0.9, currency: 'CNY', usdRate: 6.95 });
    expect(price.payCents).toBe(62_550);
    expect(price.discountCents).toBe(6_950);
  });

  it('keeps the largest order exact: 1,000,000 dollars at 7.3 is 7,300,000.00 CNY', () => {
    const price = priceOrder({ ...base, amount: 1_000_000, currency: 'CNY' });
    expect(price.payCents).toBe(730_000_000);
    expect(price.quota).toBe(500_000_000_000);
  });

  it('rounds a fractional QuotaPerUnit product half up to whole quota', () => {
    expect(priceOrder({ ...base, amount: 3, quotaPerUnit: 333_333.5 }).quota).toBe(1_000_001);
  });

  it('answers the quote with two-decimal numbers', () => {
    const quote = toQuote(priceOrder({ ...base, discountRate: 0.95, percentFee: 0.03 }));
    expect(quote).toEqual({
      amount: 10,
      discount_rate: 0.95,
      fee: 0.29,
      discount: 0.5,
      order_amount: 9.79,
      currency: 'USD',
      quota: 5_000_000,
    });
  });
});

describe('money helpers', () => {
  it('reads decimal columns as cents whether the driver gives a number or a string', () => {
    expect(centsOf('12.34')).toBe(1234);
    expect(centsOf(12.34)).toBe(1234);
    expect(centsOf('0.10')).toBe(10);
    expect(centsOf(0)).toBe(0);
    expect(centsOf('7')).toBe(700);
  });

  it('writes cents as two-decimal text', () => {
    expect(centsText(1234)).toBe('12.34');
    expect(centsText(5)).toBe('0.05');
    expect(centsText(100)).toBe('1.00');
  });

  it('looks the discount up by the amount text, falling back to 1', () => {
    expect(discountRateFor('{"10":0.95,"100":0.9}', 10)).toBe(0.95);
    expect(discountRateFor('{"10":0.95}', 11)).toBe(1);
    expect(discountRateFor('not json', 10)).toBe(1);
    expect(discountRateFor('{"10":1.5}', 10)).toBe(1);
  });
});

describe('a plan order (issue 33): the plan price in the gateway currency, fees and all, no quota', () => {
  const plan = { price: 9.99, priceCurrency: 'USD' as const, percentFee: 0, fixedFee: 0, usdRate: 7.3 };

  it('prices a dollar plan as a top-up of the same dollars, cents included', () => {
    expect(pricePlan({ ...plan, currency: 'USD' })).toEqual({
      amount: 0,
      discountRate: 1,
      feeCents: 0,
      discountCents: 0,
      payCents: 999,
      currency: 'USD',
      quota: 0,
    });
    // 9.99 × 7.3 = 72.927 → 72.93; the 3% fee on $9.99 is 0.2997 → $0.30 → 2.19 CNY.
    const cny = pricePlan({ ...plan, currency: 'CNY', percentFee: '0.03' });
    expect({ fee: cny.feeCents, pay: cny.payCents }).toEqual({ fee: 219, pay: 7512 });
  });

  it('charges a yuan plan as it is on a yuan gateway and converts it for a dollar one', () => {
    const yuan = { ...plan, price: 20, priceCurrency: 'CNY' as const };
    expect(pricePlan({ ...yuan, currency: 'CNY' }).payCents).toBe(2000);
    // A fixed fee is in dollars: $0.50 is 3.65 CNY.
    expect(pricePlan({ ...yuan, currency: 'CNY', fixedFee: '0.50' })).toMatchObject({ feeCents: 365, payCents: 2365 });
    // 20 / 7.3 = 2.7397… → $2.74, plus 3% (0.0822 → 0.08).
    expect(pricePlan({ ...yuan, currency: 'USD', percentFee: 0.03 })).toMatchObject({ feeCents: 8, payCents: 282 });
  });
});
