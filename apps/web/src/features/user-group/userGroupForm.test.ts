import type { UserGroupView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { emptyUserGroupForm, formFieldOf, userGroupToForm, validateUserGroupForm } from './userGroupForm.js';

const t = (key: string, values?: Record<string, unknown>) => (values ? `${key}:${JSON.stringify(values)}` : key);
const valid = { ...emptyUserGroupForm(), symbol: 'team', name: 'Team' };

describe('validateUserGroupForm', () => {
  it('creates a group with the defaults of the reference', () => {
    expect(validateUserGroupForm(valid, null, t)).toEqual({
      ok: true,
      body: {
        symbol: 'team',
        name: 'Team',
        ratio: 1,
        api_rate: 600,
        tpm: 0,
        budgets: [],
        fallbacks: {},
        cache_affinity: true,
        public: false,
        routing_strategy: 'weighted',
        promotion: false,
        min: 0,
        max: 0,
      },
    });
  });

  it('leaves the symbol out when editing', () => {
    const group = { id: 4, symbol: 'vip', name: 'VIP', ratio: 0.5, api_rate: 0, public: true } as UserGroupView;
    const stored = { ...group, promotion: true, min: 10, max: 0, enable: true, routing_strategy: 'latency' as const };
    const values = { ...userGroupToForm(stored), name: 'V' };
    const result = validateUserGroupForm(values, 4, t);
    expect(result).toEqual({
      ok: true,
      body: {
        id: 4,
        name: 'V',
        ratio: 0.5,
        api_rate: 0,
        tpm: 0,
        budgets: [],
        fallbacks: {},
        cache_affinity: true,
        public: true,
        routing_strategy: 'latency',
        promotion: true,
        min: 10,
        max: 0,
      },
    });
  });

  it('sends the fallback rows as a map and the affinity switch, and names a cycle on its row', () => {
    const fallbacks = [
      { model: 'big', fallbacks: 'small, tiny' },
      { model: '', fallbacks: '' },
    ];
    const result = validateUserGroupForm({ ...valid, fallbacks, cacheAffinity: false }, null, t);
    expect(result.ok && result.body).toMatchObject({ fallbacks: { big: ['small', 'tiny'] }, cache_affinity: false });
    const cyclic = [
      { model: 'a', fallbacks: 'b' },
      { model: 'b', fallbacks: 'a' },
    ];
    const refused = validateUserGroupForm({ ...valid, fallbacks: cyclic }, null, t);
    expect(refused.ok || refused.errors).toEqual({
      'fallbacks.0.fallbacks': 'fallback:errors.cycle:{"cycle":"a → b → a"}',
    });
  });

  it('requires a symbol of letters, digits, "_" and "-", and a name', () => {
    const empty = validateUserGroupForm({ ...valid, symbol: '', name: ' ' }, null, t);
    expect(empty.ok || empty.errors).toEqual({
      symbol: 'userGroup:form.errors.symbolRequired',
      name: 'userGroup:form.errors.nameRequired',
    });
    const spaced = validateUserGroupForm({ ...valid, symbol: 'a b' }, null, t);
    expect(spaced.ok || spaced.errors).toEqual({ symbol: 'userGroup:form.errors.symbolPattern' });
    const long = validateUserGroupForm({ ...valid, symbol: 'a'.repeat(51), name: 'n'.repeat(51) }, null, t);
    expect(long.ok || long.errors).toEqual({
      symbol: 'userGroup:form.errors.symbolTooLong:{"max":50}',
      name: 'userGroup:form.errors.nameTooLong:{"max":50}',
    });
  });

  it('refuses a negative or missing ratio and a negative or fractional API rate', () => {
    const result = validateUserGroupForm({ ...valid, ratio: '-0.1', apiRate: '1.5' }, null, t);
    expect(result.ok || result.errors).toEqual({
      ratio: 'userGroup:form.errors.ratio',
      apiRate: 'userGroup:form.errors.apiRate',
    });
    const blank = validateUserGroupForm({ ...valid, ratio: '', apiRate: '' }, null, t);
    expect(blank.ok || Object.keys(blank.errors).sort()).toEqual(['apiRate', 'ratio']);
    const zero = validateUserGroupForm({ ...valid, ratio: '0', apiRate: '0' }, null, t);
    expect(zero.ok).toBe(true);
  });

  it('checks the promotion range only when promotion is on', () => {
    const inverted = { ...valid, promotion: true, min: '50', max: '20' };
    const result = validateUserGroupForm(inverted, null, t);
    expect(result.ok || result.errors).toEqual({ max: 'userGroup:form.errors.maxRange' });
    expect(validateUserGroupForm({ ...inverted, max: '0' }, null, t).ok).toBe(true);
    expect(validateUserGroupForm({ ...inverted, promotion: false }, null, t).ok).toBe(true);
    const fractional = validateUserGroupForm({ ...valid, promotion: true, min: '1.5' }, null, t);
    expect(fractional.ok || fractional.errors).toMatchObject({ min: 'userGroup:form.errors.dollars' });
  });
});

describe('formFieldOf', () => {
  it("finds the form's field for the field a server refusal names", () => {
    expect(formFieldOf('symbol')).toBe('symbol');
    expect(formFieldOf('api_rate')).toBe('apiRate');
    expect(formFieldOf('public')).toBeUndefined();
  });
});

describe('budgets and tokens per minute on a group (issue 33)', () => {
  const dollars = { currency: true, quotaPerUnit: 500_000 };

  it('sends the windows with money typed in US$, and the TPM', () => {
    const values = {
      ...valid,
      tpm: '5000',
      budgets: [{ period: 'day' as const, quota: '2', requests: '50', tokens: '' }],
    };
    const result = validateUserGroupForm(values, null, t, dollars);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.body).toMatchObject({ tpm: 5000, budgets: [{ period: 'day', quota: 1_000_000, requests: 50 }] });
  });

  it('shows a stored group in the form and names a refused row and TPM on their inputs', () => {
    const group = { id: 2, symbol: 'vip', name: 'VIP', ratio: 1, api_rate: 0, tpm: 7, public: false } as UserGroupView;
    const values = userGroupToForm({ ...group, budgets: [{ period: 'week', tokens: 9000 }] }, dollars);
    expect(values.budgets).toEqual([{ period: 'week', quota: '', requests: '', tokens: '9000' }]);
    const result = validateUserGroupForm(
      { ...values, tpm: 'x', budgets: [{ period: 'week', quota: '', requests: '', tokens: '' }] },
      2,
      t,
      dollars,
    );
    expect(result.ok || result.errors).toEqual({
      tpm: 'userGroup:form.errors.apiRate',
      'budgets.0.row': 'budget:errors.emptyRow',
    });
  });
});
