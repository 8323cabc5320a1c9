import { describe, expect, it } from 'vitest';
import { changesSummary, fieldSummary, valueText } from './auditSummary.js';

describe('audit change summary', () => {
  it('names each field with its values, a secret only as changed', () => {
    expect(changesSummary({ priority: { before: 0, after: 5 }, key: { secret: true } }, 'changed')).toEqual({
      text: 'priority: 0 → 5, key: changed',
      more: 0,
    });
  });

  it('shows the one value of a creation or a deletion, and counts the fields past the third', () => {
    expect(fieldSummary('name', { after: 'main' }, 'changed')).toBe('name: main');
    expect(fieldSummary('name', { before: 'old' }, 'changed')).toBe('name: old');
    const summary = changesSummary({ a: { after: 1 }, b: { after: 2 }, c: { after: 3 }, d: { after: 4 } }, 'x');
    expect(summary).toEqual({ text: 'a: 1, b: 2, c: 3', more: 1 });
  });

  it('writes empty text, objects and long values so they stay one short line', () => {
    expect(valueText('')).toBe('""');
    expect(valueText(null)).toBe('null');
    expect(valueText([{ period: 'day', quota: 5 }])).toBe('[{"period":"day","quota":5}]');
    expect(valueText('x'.repeat(60))).toBe(`${'x'.repeat(39)}…`);
  });
});
