import { z } from 'zod';
import { MAX_QUOTA } from './quota.js';

/**
 * Budgets per window (issue 33): on an API key (`setting.budgets`), a user (`budgets`) and a user
 * group (`budgets`, applying to each member on its own), each a list of windows with any of a
 * money (quota), request and token allowance. A request that would pass one is refused before it
 * reaches an upstream, with 429 `budget_exceeded`.
 */
export const BUDGET_PERIODS = ['5h', 'day', 'week', 'month'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

/** How windows are counted (option `BudgetWindowMode`). */
export const BUDGET_WINDOW_MODES = ['rolling', 'calendar'] as const;
export type BudgetWindowMode = (typeof BUDGET_WINDOW_MODES)[number];

/** The most windows one key, user, group or plan may hold. */
export const MAX_BUDGETS = 8;

const allowance = (field: string, max: number) =>
  z
    .number(`${field} must be a number`)
    .int(`${field} must be an integer`)
    .min(1, `${field} must be at least 1 (leave it out for no limit)`)
    .max(max, `${field} must be at most ${max}`)
    .optional();

export const budgetSchema = z
  .strictObject(
    {
      period: z.enum(BUDGET_PERIODS, { error: `period must be one of ${BUDGET_PERIODS.join(', ')}` }),
      /** Quota units that may be spent in the window. */
      quota: allowance('quota', MAX_QUOTA),
      requests: allowance('requests', 1_000_000_000),
      tokens: allowance('tokens', 1_000_000_000_000),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')} is not a known budget field` : undefined,
    },
  )
  .refine((budget) => budget.quota !== undefined || budget.requests !== undefined || budget.tokens !== undefined, {
    error: 'a budget needs at least one of quota, requests or tokens',
  });
export type Budget = z.output<typeof budgetSchema>;

/** A list of windows, at most one per period; `null` (as older clients send) is the empty list. */
export const budgetListSchema = z
  .array(budgetSchema, 'budgets must be a list')
  .max(MAX_BUDGETS, `budgets may hold at most ${MAX_BUDGETS} windows`)
  .nullish()
  .transform((budgets) => budgets ?? [])
  .superRefine((budgets, context) => {
    const seen = new Set<string>();
    budgets.forEach((budget, index) => {
      if (seen.has(budget.period)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'period'],
          message: `budgets has two ${budget.period} windows; merge them into one`,
        });
      }
      seen.add(budget.period);
    });
  });

/** Reads a stored list leniently: anything unreadable is no budget rather than a failed request. */
export function parseStoredBudgets(value: unknown): Budget[] {
  const text = typeof value === 'string' ? value : undefined;
  let parsed: unknown = value;
  if (text !== undefined) {
    try {
      parsed = text === '' ? [] : JSON.parse(text);
    } catch {
      return [];
    }
  }
  const result = budgetListSchema.safeParse(parsed);
  return result.success ? result.data : [];
}

/** Whose window a row describes. */
export type BudgetScope = 'key' | 'user' | 'group' | 'plan';

/** One window with its allowance and current use (`GET /api/user/plan`, the key, user and group views). */
export interface BudgetWindowView {
  scope: BudgetScope;
  period: BudgetPeriod;
  /** The allowance; null where the window does not limit that measure. */
  quota: number | null;
  requests: number | null;
  tokens: number | null;
  used_quota: number;
  used_requests: number;
  used_tokens: number;
  /** Unix seconds; 0 when no window is open (a rolling window opens with the next request). */
  started_at: number;
  resets_at: number;
}

/** The member who used the most of a group's window, against the group's allowance. */
export interface GroupBudgetTopMember {
  user_id: number;
  username: string;
  used_quota: number;
  used_requests: number;
  used_tokens: number;
  /** That member's window, Unix seconds (with rolling windows each member has its own). */
  started_at: number;
  resets_at: number;
}

/**
 * One window of a user group's budgets as `GET /api/user_group/:id` shows it (`budget_windows`): the
 * group's allowance and how its members stand in their current windows, counted from the stored
 * window use (written each second, so up to a second behind the live count).
 */
export interface GroupBudgetWindowView {
  period: BudgetPeriod;
  /** The allowance per member; null where the window does not limit that measure. */
  quota: number | null;
  requests: number | null;
  tokens: number | null;
  /** Members with some use in their current window. */
  members_using: number;
  /** Members who reached the group's allowance in any of its measures. */
  members_exhausted: number;
  /** The member nearest to (or furthest past) the allowance; null when no member has use. */
  top: GroupBudgetTopMember | null;
}
