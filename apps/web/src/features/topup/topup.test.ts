import { describe, expect, it } from 'vitest';
import { formatPaymentAmount } from '../../lib/format.js';
import { inviteLink } from './invite.js';
import { checkAmount, orderStateOfFailure, parseDiscounts, presetAmounts } from './payment.js';

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

describe('amount presets', () => {
  it('reads only positive multipliers from RechargeDiscount', () => {
    expect(parseDiscounts('{"100": 0.9, "bad": "x", "5": -1}')).toEqual({ '100': 0.9 });
    expect(parseDiscounts('not json')).toEqual({});
    expect(parseDiscounts('[1]')).toEqual({});
  });

  it('offers the discounted amounts when there are any, else a ladder, never below the minimum', () => {
    expect(presetAmounts({ '200': 0.9, '50': 0.95, '1.5': 0.9, '2000000': 0.5 }, 0)).toEqual([50, 200]);
    expect(presetAmounts({}, 0)).toEqual([10, 20, 50, 100, 200, 500]);
    expect(presetAmounts({}, 60)).toEqual([100, 200, 500]);
  });

  it('writes money with its currency sign and two decimals', () => {
    expect(formatPaymentAmount(79.2, 'CNY')).toBe('¥79.20');
    expect(formatPaymentAmount(12.5, 'USD')).toBe('$12.50');
    expect(formatPaymentAmount(3, 'EUR')).toBe('3.00 EUR');
  });
});

describe('order status answers', () => {
  it('keeps waiting on "not paid yet", network and server errors; stops on a 4xx with its reason', () => {
    expect(orderStateOfFailure(200, 'not paid')).toEqual({ state: 'pending' });
    expect(orderStateOfFailure(0, 'offline')).toEqual({ state: 'pending' });
    expect(orderStateOfFailure(502, 'bad gateway')).toEqual({ state: 'pending' });
    expect(orderStateOfFailure(429, 'slow down')).toEqual({ state: 'pending' });
    expect(orderStateOfFailure(404, 'order not found')).toEqual({ state: 'failed', message: 'order not found' });
    expect(orderStateOfFailure(409, 'order closed')).toEqual({ state: 'failed', message: 'order closed' });
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
