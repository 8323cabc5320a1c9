import {
  type BalancingStrategy,
  type CreateUserGroupBody,
  createUserGroupBody,
  type UpdateUserGroupBody,
  type UserGroupView,
  updateUserGroupBody,
} from '@one-hub/contracts';
import {
  type BudgetRow,
  budgetsToRows,
  checkBudgetRows,
  isBudgetPath,
  rowsToBudgets,
} from '../../components/budgets/budgetRows.js';
import {
  checkFallbackRows,
  type FallbackRow,
  fallbacksToRows,
  isFallbackPath,
  rowsToFallbacks,
} from '../../components/fallbacks/fallbackRows.js';
import type { FormCheck } from '../../components/form/checkedForm.js';
import { byFirstKey, placeIssues } from '../../components/form/placeIssues.js';
import { numberOf } from '../../components/form/typedNumber.js';
import type { QuotaUnit } from '../../lib/quotaAmount.js';

/** The group dialog's fields as the inputs hold them (numbers as typed text). */
export interface UserGroupFormValues {
  symbol: string;
  name: string;
  ratio: string;
  apiRate: string;
  /** Tokens per minute for each member; 0 = no limit. */
  tpm: string;
  /** Allowances per window, each member on their own (issue 33). */
  budgets: BudgetRow[];
  /** Models tried when every channel of the requested one failed (issue 34). */
  fallbacks: FallbackRow[];
  /** Requests of one conversation stay on one channel (issue 34). */
  cacheAffinity: boolean;
  public: boolean;
  promotion: boolean;
  /** Promotion bounds in whole US dollars of cumulative top-up. */
  min: string;
  max: string;
  /** How the group's requests choose among a priority tier's channels (issue 34). */
  routingStrategy: BalancingStrategy;
}

/** The fields that are one input each, which a server refusal can name. */
type SingleField = 'symbol' | 'name' | 'ratio' | 'apiRate' | 'tpm' | 'min' | 'max';
/** Those, a budget row's input (`budgets.0.quota`), a row (`budgets.0.row`) or the budget list; a fallback row's input. */
export type UserGroupFormField = SingleField | `budgets${string}` | `fallbacks${string}`;
export type UserGroupFormErrors = Partial<Record<UserGroupFormField, string>>;

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Amounts typed as raw quota unless the dialog says otherwise (lib/quotaAmount.ts). */
const RAW_QUOTA: QuotaUnit = { currency: false, quotaPerUnit: 1 };

export const SYMBOL_MAX_LENGTH = 50;
export const GROUP_NAME_MAX_LENGTH = 50;
/** The request rate a new group starts with (the reference's default). */
export const DEFAULT_API_RATE = 600;

export function emptyUserGroupForm(): UserGroupFormValues {
  return {
    symbol: '',
    name: '',
    ratio: '1',
    apiRate: String(DEFAULT_API_RATE),
    tpm: '0',
    budgets: [],
    fallbacks: [],
    cacheAffinity: true,
    public: false,
    promotion: false,
    min: '0',
    max: '0',
    routingStrategy: 'weighted',
  };
}

export function userGroupToForm(group: UserGroupView, unit: QuotaUnit = RAW_QUOTA): UserGroupFormValues {
  return {
    symbol: group.symbol,
    name: group.name,
    ratio: String(group.ratio),
    apiRate: String(group.api_rate),
    tpm: String(group.tpm ?? 0),
    budgets: budgetsToRows(group.budgets, unit),
    fallbacks: fallbacksToRows(group.fallbacks),
    cacheAffinity: group.cache_affinity ?? true,
    public: group.public,
    promotion: group.promotion,
    min: String(group.min),
    max: String(group.max),
    routingStrategy: group.routing_strategy ?? 'weighted',
  };
}

const fieldOfPath: Record<string, SingleField> = {
  symbol: 'symbol',
  name: 'name',
  ratio: 'ratio',
  api_rate: 'apiRate',
  tpm: 'tpm',
  min: 'min',
  max: 'max',
};

function issueText(field: SingleField, code: string, values: UserGroupFormValues, t: Translate): string {
  switch (field) {
    case 'symbol':
      if (values.symbol.trim() === '') return t('userGroup:form.errors.symbolRequired');
      if (code === 'too_big') return t('userGroup:form.errors.symbolTooLong', { max: SYMBOL_MAX_LENGTH });
      return t('userGroup:form.errors.symbolPattern');
    case 'name':
      if (values.name.trim() === '') return t('userGroup:form.errors.nameRequired');
      return t('userGroup:form.errors.nameTooLong', { max: GROUP_NAME_MAX_LENGTH });
    case 'ratio':
      return t('userGroup:form.errors.ratio');
    case 'apiRate':
    case 'tpm':
      return t('userGroup:form.errors.apiRate');
    case 'min':
      return t('userGroup:form.errors.dollars');
    case 'max':
      return code === 'custom' ? t('userGroup:form.errors.maxRange') : t('userGroup:form.errors.dollars');
  }
}

export type UserGroupFormResult = FormCheck<CreateUserGroupBody | UpdateUserGroupBody, UserGroupFormField>;

/** The form's field of an issue's path (the API's field names are snake_case). */
const fieldAt = byFirstKey(fieldOfPath);

/**
 * Checks the values with the server's schema and turns its issues into translated field messages.
 * `id` null creates a group (with its symbol); with an id the symbol is left out, as it cannot change.
 */
export function validateUserGroupForm(
  values: UserGroupFormValues,
  id: number | null,
  t: Translate,
  unit: QuotaUnit = RAW_QUOTA,
): UserGroupFormResult {
  const fields = {
    name: values.name,
    ratio: numberOf(values.ratio),
    api_rate: numberOf(values.apiRate),
    tpm: numberOf(values.tpm),
    budgets: rowsToBudgets(values.budgets, unit),
    fallbacks: rowsToFallbacks(values.fallbacks),
    cache_affinity: values.cacheAffinity,
    public: values.public,
    routing_strategy: values.routingStrategy,
    promotion: values.promotion,
    // Without promotion the bounds are unused: keep what was there, or 0 when unreadable.
    min: values.promotion ? numberOf(values.min) : numberOf(values.min) || 0,
    max: values.promotion ? numberOf(values.max) : numberOf(values.max) || 0,
  };
  const parsed =
    id === null
      ? createUserGroupBody.safeParse({ symbol: values.symbol, ...fields })
      : updateUserGroupBody.safeParse({ id, ...fields });
  const budgets: UserGroupFormErrors = {
    ...checkBudgetRows(values.budgets, unit, t).errors,
    ...checkFallbackRows(values.fallbacks, t).errors,
  };
  if (parsed.success && Object.keys(budgets).length === 0) return { ok: true, body: parsed.data };
  // The budget and fallback rows' issues are named by their checks, on their inputs.
  const issues = (parsed.error?.issues ?? []).filter(
    (issue) => !isBudgetPath(issue.path) && !isFallbackPath(issue.path),
  );
  const placed = placeIssues(issues, fieldAt, (field, issue) => issueText(field, issue.code, values, t), budgets);
  return { ok: false, ...placed };
}

/** The form's field for the field a server refusal names (the API's `api_rate` is `apiRate` here). */
export function formFieldOf(apiField: string): SingleField | undefined {
  return fieldOfPath[apiField];
}
