import { describe, expect, it } from 'vitest';
import { BodyBudget, Tally } from './body-budget.js';

describe('BodyBudget', () => {
  it('takes up to the address and the user budgets and refuses beyond them, taking nothing', () => {
    const budget = new BodyBudget({ perAddress: 100, perUser: 60 });
    expect(budget.take('a', 1, 50)).toBeUndefined();
    expect(budget.take('a', 1, 20)?.message).toContain('API key owner');
    expect(budget.held('a')).toBe(50);
    expect(budget.held('a', 1)).toBe(50);
    expect(budget.take('a', 2, 40)).toBeUndefined();
    expect(budget.take('a', 3, 20)?.message).toContain('address');
    expect(budget.held('a', 3)).toBe(0);
    expect(budget.held('a')).toBe(90);
    budget.give('a', 1, 50);
    expect(budget.held('a')).toBe(40);
    expect(budget.held('a', 1)).toBe(0);
    expect(budget.take('a', 1, 60)).toBeUndefined();
  });

  it('never holds less than nothing when more is given back than was taken', () => {
    const budget = new BodyBudget({ perAddress: 100, perUser: 100 });
    budget.take('a', 1, 30);
    budget.give('a', 1, 1000);
    budget.give('b', 2, 10);
    expect(budget.held('a')).toBe(0);
    expect(budget.held('a', 1)).toBe(0);
    expect(budget.held('b')).toBe(0);
    expect(budget.take('a', 1, 100)).toBeUndefined();
  });

  it('forgets drained addresses and users as new ones come, keeping those that hold bytes', () => {
    const budget = new BodyBudget({ perAddress: 100, perUser: 100 });
    budget.take('kept', 0, 5);
    for (let client = 1; client <= 5000; client++) {
      budget.take(`10.0.${client >> 8}.${client & 255}`, client, 10);
      budget.give(`10.0.${client >> 8}.${client & 255}`, client, 10);
    }
    expect(budget.entries).toBeLessThanOrEqual(2 * 256);
    expect(budget.held('kept')).toBe(5);
    expect(budget.held('kept', 0)).toBe(5);
  });
});

describe('Tally', () => {
  it('stays within twice the keys that hold a count', () => {
    const tally = new Tally<number>();
    for (let key = 0; key < 1000; key++) tally.set(key, 1);
    for (let key = 2000; key < 10_000; key++) {
      tally.set(key, 1);
      tally.set(key, 0);
      expect(tally.size).toBeLessThanOrEqual(2 * 1000 + 1);
    }
    for (let key = 0; key < 1000; key++) expect(tally.of(key)).toBe(1);
  });
});
