import { BUDGET_PERIODS, type BudgetWindowView, type GroupBudgetWindowView } from '@one-hub/contracts';

export type BudgetMeasure = 'quota' | 'requests' | 'tokens';

export interface BudgetBar {
  measure: BudgetMeasure;
  used: number;
  limit: number;
  /** Share of the allowance used, 0–100 (a window can end slightly over when requests settle). */
  percent: number;
}

const MEASURES: readonly BudgetMeasure[] = ['quota', 'requests', 'tokens'];

/** One bar per measure the window limits, in the order money, requests, tokens. */
export function windowBars(window: BudgetWindowView): BudgetBar[] {
  const bars: BudgetBar[] = [];
  for (const measure of MEASURES) {
    const limit = window[measure];
    if (limit === null || limit <= 0) continue;
    const used = Math.max(0, window[`used_${measure}`]);
    bars.push({ measure, used, limit, percent: Math.min(100, (used / limit) * 100) });
  }
  return bars;
}

/** Above these shares of an allowance a bar turns amber, then red. */
export function barColor(percent: number): 'primary' | 'warning' | 'error' {
  if (percent >= 90) return 'error';
  if (percent >= 70) return 'warning';
  return 'primary';
}

/** When the window resets; null while none is open (a rolling window opens with the next request). */
export function resetTime(window: Pick<BudgetWindowView, 'started_at' | 'resets_at'>): number | null {
  return window.resets_at > 0 ? window.resets_at : null;
}

const SCOPE_ORDER = ['plan', 'key', 'user', 'group'] as const;

/** Windows shortest first, then by whose they are, so a list reads the same each time. */
export function sortWindows(windows: readonly BudgetWindowView[]): BudgetWindowView[] {
  return [...windows].sort(
    (left, right) =>
      BUDGET_PERIODS.indexOf(left.period) - BUDGET_PERIODS.indexOf(right.period) ||
      SCOPE_ORDER.indexOf(left.scope) - SCOPE_ORDER.indexOf(right.scope),
  );
}

/** A budget list shortest window first. */
export function sortBudgets<Entry extends { period: (typeof BUDGET_PERIODS)[number] }>(
  budgets: readonly Entry[],
): Entry[] {
  return [...budgets].sort((left, right) => BUDGET_PERIODS.indexOf(left.period) - BUDGET_PERIODS.indexOf(right.period));
}

/** A group's window as the bars of its top member's use against the group's allowance (none used: zeros). */
export function groupTopWindow(window: GroupBudgetWindowView): BudgetWindowView {
  const { top } = window;
  return {
    scope: 'group',
    period: window.period,
    quota: window.quota,
    requests: window.requests,
    tokens: window.tokens,
    used_quota: top?.used_quota ?? 0,
    used_requests: top?.used_requests ?? 0,
    used_tokens: top?.used_tokens ?? 0,
    started_at: top?.started_at ?? 0,
    resets_at: top?.resets_at ?? 0,
  };
}
