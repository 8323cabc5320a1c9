import {
  type CreatePlanBody,
  createPlanBody,
  type PaymentCurrency,
  PLAN_MAX_DAYS,
  type PlanView,
  type UpdatePlanBody,
  updatePlanBody,
} from '@one-hub/contracts';
import {
  type BudgetRow,
  budgetsToRows,
  checkBudgetRows,
  isBudgetPath,
  rowsToBudgets,
} from '../../components/budgets/budgetRows.js';
import { placeIssues } from '../../components/form/placeIssues.js';
import { numberOf } from '../../components/form/typedNumber.js';
import type { QuotaUnit } from '../../lib/quotaAmount.js';

/** The plan dialog's fields as the inputs hold them (numbers as typed text). */
export interface PlanFormValues {
  name: string;
  description: string;
  /** In `currency`, at most two decimals. */
  price: string;
  currency: PaymentCurrency;
  durationDays: string;
  /** The allowance per window: at least one. */
  budgets: BudgetRow[];
  /** The group subscribers move into while the plan is active; '' keeps theirs. */
  group: string;
  models: string[];
  fallbackToBalance: boolean;
  enable: boolean;
  sort: string;
}

type SingleField = 'name' | 'description' | 'price' | 'currency' | 'durationDays' | 'group' | 'models' | 'sort';
/** Those, a budget row's input (`budgets.0.quota`), a row (`budgets.0.row`) or the budget list. */
export type PlanFormField = SingleField | `budgets${string}`;

type Translate = (key: string, values?: Record<string, unknown>) => string;

export const PLAN_NAME_MAX_LENGTH = 50;
export const PLAN_DESCRIPTION_MAX_LENGTH = 500;

export function emptyPlanForm(): PlanFormValues {
  return {
    name: '',
    description: '',
    price: '',
    currency: 'USD',
    durationDays: '30',
    budgets: [{ period: 'month', quota: '', requests: '', tokens: '' }],
    group: '',
    models: [],
    fallbackToBalance: true,
    enable: true,
    sort: '0',
  };
}

export function planToForm(plan: PlanView, unit: QuotaUnit): PlanFormValues {
  return {
    name: plan.name,
    description: plan.description,
    price: String(plan.price),
    currency: plan.currency,
    durationDays: String(plan.duration_days),
    budgets: budgetsToRows(plan.budgets, unit),
    group: plan.group,
    models: plan.models,
    fallbackToBalance: plan.fallback_to_balance,
    enable: plan.enable,
    sort: String(plan.sort),
  };
}

const fieldOfPath: Record<string, SingleField> = {
  name: 'name',
  description: 'description',
  price: 'price',
  currency: 'currency',
  duration_days: 'durationDays',
  group: 'group',
  models: 'models',
  sort: 'sort',
};

function issueText(field: SingleField, values: PlanFormValues, t: Translate): string {
  switch (field) {
    case 'name':
      return values.name.trim() === ''
        ? t('plan:form.errors.nameRequired')
        : t('plan:form.errors.nameTooLong', { max: PLAN_NAME_MAX_LENGTH });
    case 'description':
      return t('plan:form.errors.descriptionTooLong', { max: PLAN_DESCRIPTION_MAX_LENGTH });
    case 'price':
      return t('plan:form.errors.price');
    case 'currency':
      return t('plan:form.errors.currency');
    case 'durationDays':
      return t('plan:form.errors.duration', { max: PLAN_MAX_DAYS });
    case 'group':
      return t('plan:form.errors.group');
    case 'models':
      return t('plan:form.errors.models');
    case 'sort':
      return t('plan:form.errors.sort');
  }
}

export type PlanFormResult =
  | { ok: true; body: CreatePlanBody | UpdatePlanBody }
  | { ok: false; errors: Partial<Record<PlanFormField, string>>; unplaced: string[] };

/**
 * Checks the values with the server's schema (create, or update with `id`) and turns its issues
 * into translated field messages; budget windows are checked by `checkBudgetRows`, at least one.
 */
export function validatePlanForm(
  values: PlanFormValues,
  id: number | null,
  t: Translate,
  unit: QuotaUnit,
): PlanFormResult {
  const fields = {
    name: values.name,
    description: values.description,
    price: numberOf(values.price),
    currency: values.currency,
    duration_days: numberOf(values.durationDays),
    budgets: rowsToBudgets(values.budgets, unit),
    group: values.group,
    models: values.models,
    fallback_to_balance: values.fallbackToBalance,
    enable: values.enable,
    sort: numberOf(values.sort),
  };
  const parsed = id === null ? createPlanBody.safeParse(fields) : updatePlanBody.safeParse({ id, ...fields });
  const budgets: Partial<Record<PlanFormField, string>> = checkBudgetRows(values.budgets, unit, t, {
    required: true,
  }).errors;
  if (parsed.success && Object.keys(budgets).length === 0) return { ok: true, body: parsed.data };
  // The budget rows' issues are named by `checkBudgetRows`, on their inputs.
  const issues = (parsed.error?.issues ?? []).filter((issue) => !isBudgetPath(issue.path));
  const fieldAt = (path: PropertyKey[]) => fieldOfPath[String(path[0] ?? '')];
  return { ok: false, ...placeIssues(issues, fieldAt, (field) => issueText(field, values, t), budgets) };
}

/** The form's field for the field a server refusal names (the API's `duration_days` is `durationDays` here). */
export function formFieldOf(apiField: string): SingleField | undefined {
  return fieldOfPath[apiField];
}

/** Who a grant goes to, from what the administrator typed: a user id, or else a username. */
export function grantTarget(text: string): { id: number } | { username: string } | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (/^[1-9]\d{0,15}$/.test(trimmed)) return { id: Number(trimmed) };
  return { username: trimmed };
}
