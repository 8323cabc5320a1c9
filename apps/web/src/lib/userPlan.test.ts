import type { BudgetWindowView, SubscriptionView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { windowFixture } from '../components/budgets/windowFixture.js';
import { activeSubscription, userWindows } from './userPlan.js';

const window = (scope: BudgetWindowView['scope'], period: BudgetWindowView['period']) =>
  windowFixture({ scope, period, quota: 100 });

const subscription = (id: number, status: SubscriptionView['status'], expires: number): SubscriptionView => ({
  id,
  plan_id: 1,
  plan_name: `plan ${id}`,
  status,
  started_at: 0,
  expires_at: expires,
  source: 'order',
  fallback_to_balance: true,
  models: [],
  windows: [window('plan', 'week')],
});

describe("the caller's windows", () => {
  it("lists the user's and group's windows, then the active plan's; none from an expired plan", () => {
    const own = [window('user', 'day'), window('group', '5h')];
    expect(userWindows({ windows: own, subscriptions: [subscription(1, 'expired', 50)] })).toEqual(own);
    const plan = { windows: own, subscriptions: [subscription(1, 'expired', 50), subscription(2, 'active', 90)] };
    expect(userWindows(plan).map((entry) => `${entry.scope}-${entry.period}`)).toEqual([
      'user-day',
      'group-5h',
      'plan-week',
    ]);
    expect(activeSubscription(plan)?.id).toBe(2);
    expect(userWindows(undefined)).toEqual([]);
  });
});
