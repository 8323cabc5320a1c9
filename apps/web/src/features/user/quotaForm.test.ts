import { describe, expect, it } from 'vitest';
import { amountToQuota } from '../../lib/quotaAmount.js';
import { type QuotaFormValues, validateQuotaForm } from './quotaForm.js';

const t = (key: string, values?: Record<string, unknown>) => (values ? `${key}:${JSON.stringify(values)}` : key);
const quotaUnit = { currency: false, quotaPerUnit: 500_000 };
const dollars = { currency: true, quotaPerUnit: 500_000 };
const form = (values: Partial<QuotaFormValues>): QuotaFormValues => ({
  direction: 'add',
  amount: '',
  remark: '',
  ...values,
});

describe('amountToQuota', () => {
  it('reads whole quota, or dollars at the site rate', () => {
    expect(amountToQuota('1500', quotaUnit)).toBe(1500);
    expect(amountToQuota('1.5', quotaUnit)).toBeNaN();
    expect(amountToQuota('2.5', dollars)).toBe(1_250_000);
    expect(amountToQuota('.01', dollars)).toBe(5000);
    expect(amountToQuota('-3', dollars)).toBeNaN();
    expect(amountToQuota('1e3', quotaUnit)).toBeNaN();
    expect(amountToQuota('', dollars)).toBeNaN();
  });
});

describe('validateQuotaForm', () => {
  it('adds and subtracts, and reports the balance afterwards', () => {
    expect(validateQuotaForm(form({ amount: '1000', remark: ' bonus ' }), 200, quotaUnit, t)).toEqual({
      ok: true,
      body: { quota: 1000, remark: 'bonus' },
      balanceAfter: 1200,
    });
    expect(validateQuotaForm(form({ direction: 'subtract', amount: '1' }), 500_000, dollars, t)).toEqual({
      ok: true,
      body: { quota: -500_000 },
      balanceAfter: 0,
    });
  });

  it('never takes the balance below zero', () => {
    const result = validateQuotaForm(form({ direction: 'subtract', amount: '201' }), 200, quotaUnit, t);
    expect(result.ok || result.errors).toEqual({ amount: 'user:quota.errors.belowZero' });
  });

  it('refuses empty, zero, fractional quota and too small dollar amounts', () => {
    const errorOf = (amount: string, unit = quotaUnit) => {
      const result = validateQuotaForm(form({ amount }), 0, unit, t);
      return result.ok ? null : result.errors.amount;
    };
    expect(errorOf('')).toBe('user:quota.errors.amountRequired');
    expect(errorOf('0')).toBe('user:quota.errors.amountZero');
    expect(errorOf('2.5')).toBe('user:quota.errors.amountWhole');
    expect(errorOf('0.0000001', dollars)).toBe('user:quota.errors.amountZero');
    expect(errorOf('abc', dollars)).toBe('user:quota.errors.amountNumber');
    expect(errorOf('9'.repeat(20))).toBe('user:quota.errors.amountTooLarge');
  });

  it('limits the remark to 200 characters', () => {
    const result = validateQuotaForm(form({ amount: '5', remark: 'x'.repeat(201) }), 0, quotaUnit, t);
    expect(result.ok || result.errors).toEqual({ remark: 'user:quota.errors.remarkTooLong:{"max":200}' });
  });
});
