import type { BudgetWindowView } from '@one-hub/contracts';

/** A budget window for tests: a day of the key's, nothing limited or used, none open; `overrides` on top. */
export function windowFixture(overrides: Partial<BudgetWindowView> = {}): BudgetWindowView {
  return {
    scope: 'key',
    period: 'day',
    quota: null,
    requests: null,
    tokens: null,
    used_quota: 0,
    used_requests: 0,
    used_tokens: 0,
    started_at: 0,
    resets_at: 0,
    ...overrides,
  };
}
