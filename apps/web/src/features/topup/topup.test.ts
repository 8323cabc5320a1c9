import { describe, expect, it } from 'vitest';
import { inviteLink } from './invite.js';
import { checkAmount, formatMoney, parseDiscounts, quotePayment } from './payment.js';

describe('top-up amount', () => {
  it('needs a positive whole number between the minimum and 1 000 000', () => {
    expect(checkAmount('', 0)).toBe('required');
    expect(checkAmount('1.5', 0)).toBe('integer');
    expect(checkAmount('abc', 0)).toBe('integer');
    expect(checkAmount('0', 0)).toBe('positive');
    expect(checkAmount('-3', 0)).toBe('positive');
    expect(checkAmount('4', 5)).toBe('belowMinimum');
    expect(checkAmount('1000001', 0)).toBe('aboveMaximum');
    expect(checkAmount(' 5 ', 5)).toBeNull();
    expect(checkAmount('1000000', 1)).toBeNull();
  });
});

describe('payment quote', () => {
  const discounts = parseDiscounts('{"100": 0.9, "bad": "x", "5": -1}');

  it('reads only positive multipliers from RechargeDiscount', () => {
    expect(discounts).toEqual({ '100': 0.9 });
    expect(parseDiscounts('not json')).toEqual({});
    expect(parseDiscounts('[1]')).toEqual({});
  });

  it('applies the discount, then the percent fee, then the exchange rate', () => {
    const usd = quotePayment(100, { percent_fee: 0.05, fixed_fee: 0, currency: 'USD' }, discounts, 7);
    expect(usd).toEqual({ discount: 0.9, fee: 4.5, pay: 94.5, saved: 10.5, currency: 'USD' });
    const cny = quotePayment(10, { percent_fee: 0, fixed_fee: 1, currency: 'CNY' }, discounts, 7.2);
    expect(cny).toEqual({ discount: 1, fee: 7.2, pay: 79.2, saved: 0, currency: 'CNY' });
    expect(formatMoney(cny.pay, cny.currency)).toBe('¥79.20');
    expect(formatMoney(12.5, 'USD')).toBe('$12.50');
  });
});

describe('invite link', () => {
  it('uses the server address when set, else the console’s own register page', () => {
    expect(inviteLink('ab1C', 'https://hub.example.com/', 'http://127.0.0.1/register')).toBe(
      'https://hub.example.com/register?aff=ab1C',
    );
    expect(inviteLink('ab1C', '', 'http://127.0.0.1:3000/hub/register')).toBe(
      'http://127.0.0.1:3000/hub/register?aff=ab1C',
    );
  });
});
