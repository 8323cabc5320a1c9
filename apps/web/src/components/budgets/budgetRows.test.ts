import { describe, expect, it } from 'vitest';
import { budgetsToRows, checkBudgetRows, nextBudgetRow, rowsToBudgets } from './budgetRows.js';

const dollars = { currency: true, quotaPerUnit: 500_000 };
const raw = { currency: false, quotaPerUnit: 500_000 };
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);
const row = (period: '5h' | 'day' | 'week' | 'month', quota = '', requests = '', tokens = '') => ({
  period,
  quota,
  requests,
  tokens,
});

describe('budget rows', () => {
  it('shows stored quota in the typed unit and reads it back unchanged', () => {
    const budgets = [
      { period: '5h' as const, quota: 2_500_000 },
      { period: 'week' as const, requests: 100, tokens: 5000 },
    ];
    const rows = budgetsToRows(budgets, dollars);
    expect(rows).toEqual([row('5h', '5'), row('week', '', '100', '5000')]);
    expect(rowsToBudgets(rows, dollars)).toEqual(budgets);
    expect(checkBudgetRows(rows, dollars, t)).toEqual({ budgets, errors: {} });
  });

  it('takes raw quota when the site shows no currency', () => {
    expect(checkBudgetRows([row('day', '1000')], raw, t).budgets).toEqual([{ period: 'day', quota: 1000 }]);
    expect(checkBudgetRows([row('day', '1.5')], raw, t).errors).toEqual({ 'budgets.0.quota': 'budget:errors.count' });
  });

  it('refuses a row with no allowance, unreadable numbers and a repeated period, each on its input', () => {
    const result = checkBudgetRows([row('day'), row('week', 'x', '0', '1.5'), row('day', '1')], dollars, t);
    expect(result.budgets).toBeNull();
    expect(result.errors).toEqual({
      'budgets.0.row': 'budget:errors.emptyRow',
      'budgets.1.quota': 'budget:errors.quotaCurrency',
      'budgets.1.requests': 'budget:errors.count',
      'budgets.1.tokens': 'budget:errors.count',
      'budgets.2.period': 'budget:errors.duplicate',
    });
  });

  it('asks for a window where one is required (plans), under the list name', () => {
    expect(checkBudgetRows([], dollars, t)).toEqual({ budgets: [], errors: {} });
    expect(checkBudgetRows([], dollars, t, { required: true, name: 'windows' })).toEqual({
      budgets: null,
      errors: { windows: 'budget:errors.required' },
    });
  });

  it('adds the first period not yet used, and none once all four are', () => {
    expect(nextBudgetRow([])).toEqual(row('5h'));
    expect(nextBudgetRow([row('5h'), row('week')])?.period).toBe('day');
    expect(nextBudgetRow([row('5h'), row('day'), row('week'), row('month')])).toBeNull();
  });
});
