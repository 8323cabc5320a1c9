import { type QuotaChangeBody, quotaChangeBody } from '@one-hub/contracts';
import { amountToQuota, type QuotaUnit } from '../../lib/quotaAmount.js';

export type QuotaDirection = 'add' | 'subtract';

export interface QuotaFormValues {
  direction: QuotaDirection;
  /** As typed: US dollars when the site shows currency, otherwise raw quota. */
  amount: string;
  remark: string;
}

export const QUOTA_REMARK_MAX_LENGTH = 200;

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** The signed change the form asks for, or NaN. */
export function quotaDelta(values: QuotaFormValues, unit: QuotaUnit): number {
  const quota = amountToQuota(values.amount, unit);
  return values.direction === 'add' ? quota : -quota;
}

export type QuotaFormResult =
  | { ok: true; body: QuotaChangeBody; balanceAfter: number }
  | { ok: false; errors: { amount?: string; remark?: string } };

/**
 * Checks an adjustment of a user whose balance is `balance`: a positive amount (whole quota, or
 * dollars worth at least one quota), never taking the balance below zero, a remark of at most
 * 200 characters. The result holds the body for `POST /api/user/quota/:id` and the new balance.
 */
export function validateQuotaForm(
  values: QuotaFormValues,
  balance: number,
  unit: QuotaUnit,
  t: Translate,
): QuotaFormResult {
  const errors: { amount?: string; remark?: string } = {};
  const delta = quotaDelta(values, unit);
  if (values.amount.trim() === '') errors.amount = t('user:quota.errors.amountRequired');
  else if (Number.isNaN(delta)) {
    errors.amount = unit.currency ? t('user:quota.errors.amountNumber') : t('user:quota.errors.amountWhole');
  } else if (delta === 0) errors.amount = t('user:quota.errors.amountZero');
  else if (balance + delta < 0) errors.amount = t('user:quota.errors.belowZero');
  const remark = values.remark.trim();
  if (remark.length > QUOTA_REMARK_MAX_LENGTH) {
    errors.remark = t('user:quota.errors.remarkTooLong', { max: QUOTA_REMARK_MAX_LENGTH });
  }
  if (errors.amount || errors.remark) return { ok: false, errors };
  const parsed = quotaChangeBody.safeParse({ quota: delta, remark: remark || undefined });
  if (!parsed.success) return { ok: false, errors: { amount: t('user:quota.errors.amountTooLarge') } };
  return { ok: true, body: parsed.data, balanceAfter: balance + delta };
}
