import {
  type CreateRedemptionBody,
  createRedemptionBody,
  REDEMPTION_BATCH_MAX,
  REDEMPTION_NAME_MAX_LENGTH,
  RedemptionStatus,
  type RedemptionView,
  type UpdateRedemptionBody,
  updateRedemptionBody,
} from '@one-hub/contracts';
import type { FormCheck } from '../../components/form/checkedForm.js';
import { placeIssues } from '../../components/form/placeIssues.js';

/** How the site shows quota: in currency ($, `quotaPerUnit` quota to the dollar) or as raw counts. */
export interface QuotaUnit {
  displayInCurrency: boolean;
  quotaPerUnit: number;
}

/** The dialog's fields as the inputs hold them. */
export interface RedemptionFormValues {
  name: string;
  /** In the site's display unit: dollars in currency mode, raw quota otherwise. */
  quota: string;
  count: string;
}

export type RedemptionFormField = keyof RedemptionFormValues;
export type RedemptionFormErrors = Partial<Record<RedemptionFormField, string>>;

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Dollars keep at most this many decimals in the input (one quota is 0.000002 $ at the default rate). */
const CURRENCY_DECIMALS = 6;

/** Raw quota as the text of the quota input, in the site's display unit. */
export function quotaToInput(quota: number, unit: QuotaUnit): string {
  if (!unit.displayInCurrency) return String(quota);
  return String(Number((quota / (unit.quotaPerUnit || 1)).toFixed(CURRENCY_DECIMALS)));
}

/**
 * The raw quota an input stands for; NaN when it is empty or not a number. Dollars are converted
 * with quota_per_unit and rounded to whole quota; a raw count is kept as typed, so a fraction is
 * refused by the schema rather than silently rounded.
 */
export function inputToQuota(text: string, unit: QuotaUnit): number {
  const trimmed = text.trim();
  if (trimmed === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return Number.NaN;
  const amount = Number(trimmed);
  if (!unit.displayInCurrency) return amount;
  return Math.round(amount * (unit.quotaPerUnit || 1));
}

function wholeNumber(text: string): number {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

export function emptyRedemptionForm(unit: QuotaUnit): RedemptionFormValues {
  // One unit of money (or its quota) is a sensible first value, as for new tokens.
  return { name: '', quota: unit.displayInCurrency ? '1' : String(unit.quotaPerUnit || 1), count: '1' };
}

export function redemptionToForm(code: RedemptionView, unit: QuotaUnit): RedemptionFormValues {
  return { name: code.name, quota: quotaToInput(code.quota, unit), count: '1' };
}

/** What the dialog edits: nothing (create), or a code and the quota text it opened with. */
export interface RedemptionFormTarget {
  code: RedemptionView | null;
  initialQuota: string;
}

export type RedemptionFormResult = FormCheck<CreateRedemptionBody | UpdateRedemptionBody, RedemptionFormField>;

function fieldOf(path: ReadonlyArray<PropertyKey>): RedemptionFormField | null {
  const [first] = path;
  return first === 'name' || first === 'quota' || first === 'count' ? first : null;
}

function issueText(field: RedemptionFormField, code: string, unit: QuotaUnit, t: Translate): string {
  switch (field) {
    case 'name':
      return code === 'too_big'
        ? t('redemption:form.errors.nameTooLong', { max: REDEMPTION_NAME_MAX_LENGTH })
        : t('redemption:form.errors.nameRequired');
    case 'quota':
      if (code === 'too_big') return t('redemption:form.errors.quotaTooLarge');
      return unit.displayInCurrency ? t('redemption:form.errors.amount') : t('redemption:form.errors.quota');
    case 'count':
      return t('redemption:form.errors.count', { max: REDEMPTION_BATCH_MAX });
  }
}

/**
 * Checks the values with the server's own schema and puts translated messages on the fields.
 * When editing, the quota is sent only if its text was changed, so reopening and saving a name
 * never moves the amount by a rounding step; a redeemed code's quota is history and never sent.
 */
export function validateRedemptionForm(
  values: RedemptionFormValues,
  target: RedemptionFormTarget,
  unit: QuotaUnit,
  t: Translate,
): RedemptionFormResult {
  const quota = inputToQuota(values.quota, unit);
  const { code } = target;
  const quotaChanged = values.quota.trim() !== target.initialQuota.trim();
  const parsed =
    code === null
      ? createRedemptionBody.safeParse({ name: values.name, quota, count: wholeNumber(values.count) })
      : updateRedemptionBody.safeParse({
          id: code.id,
          name: values.name,
          ...(quotaChanged && code.status !== RedemptionStatus.redeemed ? { quota } : {}),
        });
  if (parsed.success) return { ok: true, body: parsed.data };
  return {
    ok: false,
    ...placeIssues(parsed.error.issues, fieldOf, (field, issue) => issueText(field, issue.code, unit, t)),
  };
}
