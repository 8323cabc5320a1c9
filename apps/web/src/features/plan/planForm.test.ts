import type { PlanView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { emptyPlanForm, formFieldOf, grantTarget, planToForm, validatePlanForm } from './planForm.js';

const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);
const dollars = { currency: true, quotaPerUnit: 500_000 };
const valid = {
  ...emptyPlanForm(),
  name: ' Pro ',
  price: '9.90',
  budgets: [{ period: '5h' as const, quota: '5', requests: '', tokens: '' }],
};

describe('plan form', () => {
  it('builds the create body, with money per window typed in US$', () => {
    const result = validatePlanForm(valid, null, t, dollars);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.body).toEqual({
      name: 'Pro',
      description: '',
      price: 9.9,
      currency: 'USD',
      duration_days: 30,
      budgets: [{ period: '5h', quota: 2_500_000 }],
      group: '',
      models: [],
      fallback_to_balance: true,
      enable: true,
      sort: 0,
    });
  });

  it('reads a stored plan back into the same body with its id', () => {
    const plan: PlanView = {
      id: 3,
      name: 'Team',
      description: 'for teams',
      price: 199,
      currency: 'CNY',
      duration_days: 90,
      budgets: [{ period: 'week', requests: 1000, tokens: 2_000_000 }],
      group: 'vip',
      models: ['gpt-4o'],
      fallback_to_balance: false,
      enable: false,
      sort: 5,
      created_at: 1,
      updated_at: 2,
    };
    const result = validatePlanForm(planToForm(plan, dollars), plan.id, t, dollars);
    const { created_at: _created, updated_at: _updated, ...body } = plan;
    expect(result).toEqual({ ok: true, body });
  });

  it('names each refused field, and asks for a window when there is none', () => {
    const result = validatePlanForm(
      { ...emptyPlanForm(), price: '1.234', durationDays: '0', sort: '1.5', budgets: [] },
      null,
      t,
      dollars,
    );
    expect(result.ok || result.errors).toEqual({
      name: 'plan:form.errors.nameRequired',
      price: 'plan:form.errors.price',
      durationDays: 'plan:form.errors.duration {"max":3650}',
      sort: 'plan:form.errors.sort',
      budgets: 'budget:errors.required',
    });
  });

  it('puts a refused window on its row', () => {
    const result = validatePlanForm(
      { ...valid, budgets: [{ period: 'day', quota: '', requests: '', tokens: '' }] },
      null,
      t,
      dollars,
    );
    expect(result.ok || result.errors).toEqual({ 'budgets.0.row': 'budget:errors.emptyRow' });
  });

  it("maps the server's field names to the form's", () => {
    expect(formFieldOf('duration_days')).toBe('durationDays');
    expect(formFieldOf('price')).toBe('price');
    expect(formFieldOf('user_id')).toBeUndefined();
  });
});

describe('granting a plan', () => {
  it('reads a number as a user id and anything else as a username', () => {
    expect(grantTarget(' 42 ')).toEqual({ id: 42 });
    expect(grantTarget('alice')).toEqual({ username: 'alice' });
    expect(grantTarget('0')).toEqual({ username: '0' });
    expect(grantTarget('  ')).toBeNull();
  });
});
