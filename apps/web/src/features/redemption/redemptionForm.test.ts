import { RedemptionStatus, type RedemptionView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import {
  emptyRedemptionForm,
  inputToQuota,
  type QuotaUnit,
  quotaToInput,
  redemptionToForm,
  validateRedemptionForm,
} from './redemptionForm.js';

const dollars: QuotaUnit = { displayInCurrency: true, quotaPerUnit: 500_000 };
const raw: QuotaUnit = { displayInCurrency: false, quotaPerUnit: 500_000 };
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);
const create = { code: null, initialQuota: '' };

const code = (overrides: Partial<RedemptionView> = {}): RedemptionView => ({
  id: 7,
  user_id: 1,
  key: 'a'.repeat(32),
  status: RedemptionStatus.enabled,
  name: 'Gift',
  quota: 1_234_567,
  created_time: 1,
  redeemed_time: 0,
  redeemed_user_id: 0,
  redeemed_username: '',
  ...overrides,
});

describe('quota in the display unit', () => {
  it('converts dollars with quota_per_unit and rounds to whole quota', () => {
    expect(inputToQuota('2.5', dollars)).toBe(1_250_000);
    expect(inputToQuota(' 0.0000031 ', dollars)).toBe(2);
    expect(inputToQuota('0', dollars)).toBe(0);
    expect(inputToQuota('10', { displayInCurrency: true, quotaPerUnit: 1000 })).toBe(10_000);
  });

  it('keeps raw quota as typed so a fraction can be refused', () => {
    expect(inputToQuota('1500', raw)).toBe(1500);
    expect(inputToQuota('1.5', raw)).toBe(1.5);
  });

  it('reads empty or non-numeric text as NaN', () => {
    for (const text of ['', '  ', 'abc', '1,000', '0x10', '$1', 'Infinity']) {
      expect(inputToQuota(text, dollars), text).toBeNaN();
    }
  });

  it('shows stored quota back in the display unit', () => {
    expect(quotaToInput(1_250_000, dollars)).toBe('2.5');
    expect(quotaToInput(1, dollars)).toBe('0.000002');
    expect(quotaToInput(1_234_567, raw)).toBe('1234567');
    expect(inputToQuota(quotaToInput(1_250_000, dollars), dollars)).toBe(1_250_000);
  });

  it('starts a new code at one unit of money', () => {
    expect(emptyRedemptionForm(dollars)).toEqual({ name: '', quota: '1', count: '1' });
    expect(emptyRedemptionForm(raw).quota).toBe('500000');
  });
});

describe('validateRedemptionForm', () => {
  it('builds the create body in quota', () => {
    const result = validateRedemptionForm({ name: ' Spring ', quota: '3', count: '25' }, create, dollars, t);
    expect(result).toEqual({ ok: true, body: { name: 'Spring', quota: 1_500_000, count: 25 } });
  });

  it.each([
    [{ name: '', quota: '1', count: '1' }, 'name', 'redemption:form.errors.nameRequired'],
    [{ name: 'x'.repeat(21), quota: '1', count: '1' }, 'name', 'redemption:form.errors.nameTooLong {"max":20}'],
    [{ name: 'ok', quota: '-1', count: '1' }, 'quota', 'redemption:form.errors.amount'],
    [{ name: 'ok', quota: '', count: '1' }, 'quota', 'redemption:form.errors.amount'],
    [{ name: 'ok', quota: '1', count: '0' }, 'count', 'redemption:form.errors.count {"max":100}'],
    [{ name: 'ok', quota: '1', count: '101' }, 'count', 'redemption:form.errors.count {"max":100}'],
    [{ name: 'ok', quota: '1', count: '2.5' }, 'count', 'redemption:form.errors.count {"max":100}'],
    [{ name: 'ok', quota: '1', count: '' }, 'count', 'redemption:form.errors.count {"max":100}'],
  ])('puts the refusal of %j on %s', (values, field, message) => {
    const result = validateRedemptionForm(values, create, dollars, t);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toEqual({ [field]: message });
  });

  it('refuses a fractional raw quota and an absurd amount', () => {
    const fraction = validateRedemptionForm({ name: 'ok', quota: '1.5', count: '1' }, create, raw, t);
    expect(fraction.ok || fraction.errors.quota).toBe('redemption:form.errors.quota');
    const huge = validateRedemptionForm({ name: 'ok', quota: '1e30', count: '1' }, create, dollars, t);
    expect(huge.ok || huge.errors.quota).toBe('redemption:form.errors.quotaTooLarge');
  });

  it('accepts the limits: 20 characters, zero quota, 100 codes', () => {
    const result = validateRedemptionForm({ name: 'y'.repeat(20), quota: '0', count: '100' }, create, raw, t);
    expect(result).toEqual({ ok: true, body: { name: 'y'.repeat(20), quota: 0, count: 100 } });
  });

  it('sends the quota of an edit only when its text changed', () => {
    const unit = dollars;
    const editing = code();
    const values = redemptionToForm(editing, unit);
    const target = { code: editing, initialQuota: values.quota };
    expect(validateRedemptionForm({ ...values, name: 'Renamed' }, target, unit, t)).toEqual({
      ok: true,
      body: { id: 7, name: 'Renamed' },
    });
    expect(validateRedemptionForm({ ...values, quota: '4' }, target, unit, t)).toEqual({
      ok: true,
      body: { id: 7, name: 'Gift', quota: 2_000_000 },
    });
  });

  it('never sends the quota of a redeemed code', () => {
    const redeemed = code({ status: RedemptionStatus.redeemed });
    const target = { code: redeemed, initialQuota: '2' };
    expect(validateRedemptionForm({ name: 'Kept', quota: '9', count: '1' }, target, dollars, t)).toEqual({
      ok: true,
      body: { id: 7, name: 'Kept' },
    });
  });
});
