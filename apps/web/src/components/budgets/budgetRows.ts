import { BUDGET_PERIODS, type Budget, type BudgetPeriod, budgetListSchema, MAX_BUDGETS } from '@one-hub/contracts';
import { amountToQuota, type QuotaUnit, quotaToAmount } from '../../lib/quotaAmount.js';

/**
 * One window of the budgets editor as its inputs hold it: the money in the console's quota unit
 * (US$ when the site shows currency), requests and tokens as typed; empty text is no limit.
 */
export interface BudgetRow {
  period: BudgetPeriod;
  quota: string;
  requests: string;
  tokens: string;
}

export type BudgetRowField = 'period' | 'quota' | 'requests' | 'tokens';

type Translate = (key: string, values?: Record<string, unknown>) => string;

export function budgetsToRows(budgets: readonly Budget[] | null | undefined, unit: QuotaUnit): BudgetRow[] {
  return (budgets ?? []).map((budget) => ({
    period: budget.period,
    quota: budget.quota === undefined ? '' : quotaToAmount(budget.quota, unit),
    requests: budget.requests === undefined ? '' : String(budget.requests),
    tokens: budget.tokens === undefined ? '' : String(budget.tokens),
  }));
}

/** A typed count: undefined when empty (no limit), NaN when not a number, so the schema refuses it. */
function countOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The list the rows stand for, before validation (the shape `budgetListSchema` reads). */
export function rowsToBudgets(rows: readonly BudgetRow[], unit: QuotaUnit) {
  return rows.map((row) => {
    const quota = row.quota.trim() === '' ? undefined : amountToQuota(row.quota, unit);
    const requests = countOf(row.requests);
    const tokens = countOf(row.tokens);
    return {
      period: row.period,
      ...(quota === undefined ? {} : { quota }),
      ...(requests === undefined ? {} : { requests }),
      ...(tokens === undefined ? {} : { tokens }),
    };
  });
}

/** The row "Add window" appends: the first period no row holds yet; null when every period is taken. */
export function nextBudgetRow(rows: readonly BudgetRow[]): BudgetRow | null {
  if (rows.length >= MAX_BUDGETS) return null;
  const period = BUDGET_PERIODS.find((candidate) => !rows.some((row) => row.period === candidate));
  return period ? { period, quota: '', requests: '', tokens: '' } : null;
}

/** Where a row's message goes when it names no single input (a row with no allowance at all). */
export const ROW_MESSAGE = 'row';

interface BudgetIssue {
  code: string;
  path: ReadonlyArray<PropertyKey>;
}

/**
 * The message of one issue of `budgetListSchema` (path relative to the list) and the key it goes
 * under, below `name`: `name.2.quota` for an input, `name.2.row` for a row, `name` for the list.
 */
export function budgetIssueMessage(
  issue: BudgetIssue,
  name: string,
  t: Translate,
  unit: QuotaUnit,
): { key: string; message: string } {
  const [index, field] = issue.path;
  if (typeof index !== 'number') {
    return {
      key: name,
      message:
        issue.code === 'too_big' ? t('budget:errors.tooMany', { max: MAX_BUDGETS }) : t('budget:errors.required'),
    };
  }
  const at = `${name}.${index}`;
  switch (field) {
    case 'period':
      return {
        key: `${at}.period`,
        message: issue.code === 'custom' ? t('budget:errors.duplicate') : t('budget:errors.period'),
      };
    case 'quota':
      return {
        key: `${at}.quota`,
        message:
          issue.code === 'too_big'
            ? t('budget:errors.tooLarge')
            : t(unit.currency ? 'budget:errors.quotaCurrency' : 'budget:errors.count'),
      };
    case 'requests':
    case 'tokens':
      return {
        key: `${at}.${field}`,
        message: issue.code === 'too_big' ? t('budget:errors.tooLarge') : t('budget:errors.count'),
      };
    default:
      return { key: `${at}.${ROW_MESSAGE}`, message: t('budget:errors.emptyRow') };
  }
}

/**
 * Checks the rows with the contracts' `budgetListSchema` and gives each issue's translated message
 * under its key below `name` (see `budgetIssueMessage`). `required`: at least one window (plans).
 */
export function checkBudgetRows(
  rows: readonly BudgetRow[],
  unit: QuotaUnit,
  t: Translate,
  { name = 'budgets', required = false }: { name?: string; required?: boolean } = {},
): { budgets: Budget[] | null; errors: Record<string, string> } {
  const parsed = budgetListSchema.safeParse(rowsToBudgets(rows, unit));
  const errors: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const { key, message } = budgetIssueMessage(issue, name, t, unit);
    errors[key] ??= message;
  }
  // The schema looks for repeated periods only once every row passes, so they are named here at once.
  rows.forEach((row, index) => {
    if (rows.findIndex((other) => other.period === row.period) < index) {
      errors[`${name}.${index}.period`] ??= t('budget:errors.duplicate');
    }
  });
  if (parsed.success && required && parsed.data.length === 0) errors[name] = t('budget:errors.required');
  return { budgets: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null, errors };
}

/** Whether a path of a body's schema issue lies inside its budget list (those are reported by `checkBudgetRows`). */
export function isBudgetPath(path: ReadonlyArray<PropertyKey>): boolean {
  return path.includes('budgets');
}
