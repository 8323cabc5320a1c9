import { describe, expect, it } from 'vitest';
import {
  assertHexColor,
  formatQuota,
  formatTimestamp,
  removeTrailingSlash,
  shortenNumber,
  trimStrings,
} from './format.js';

describe('quota display (spec §9)', () => {
  it('shows dollars with two decimals in currency mode', () => {
    expect(formatQuota(1_234_567, { quotaPerUnit: 500_000, displayInCurrency: true })).toBe('$2.47');
    expect(formatQuota(0, { quotaPerUnit: 500_000, displayInCurrency: true })).toBe('$0.00');
  });

  it('shows a per-request amount with up to 6 decimals, trailing zeros dropped', () => {
    const precise = { quotaPerUnit: 500_000, displayInCurrency: true, digits: 6 };
    expect(formatQuota(62, precise)).toBe('$0.000124');
    expect(formatQuota(750_000, precise)).toBe('$1.50');
    expect(formatQuota(0, precise)).toBe('$0.00');
    expect(formatQuota(12_345, { ...precise, displayInCurrency: false })).toBe('12.3k');
  });

  it('shortens raw counts with k, M and B and one decimal', () => {
    expect(shortenNumber(9_999)).toBe('9999');
    expect(shortenNumber(12_345)).toBe('12.3k');
    expect(shortenNumber(4_560_000)).toBe('4.6M');
    expect(shortenNumber(1_200_000_000)).toBe('1.2B');
    expect(formatQuota(12_345, { quotaPerUnit: 500_000, displayInCurrency: false })).toBe('12.3k');
  });
});

describe('helpers of spec §5', () => {
  it('formats Unix seconds as YYYY-MM-DD HH:mm:ss', () => {
    expect(formatTimestamp(0)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('trims strings in nested data', () => {
    expect(trimStrings({ a: ' x ', b: [' y', { c: 'z ' }], d: 1 })).toEqual({ a: 'x', b: ['y', { c: 'z' }], d: 1 });
  });

  it('removes one trailing slash', () => {
    expect(removeTrailingSlash('https://api.example.com//')).toBe('https://api.example.com/');
    expect(removeTrailingSlash('https://api.example.com')).toBe('https://api.example.com');
  });

  it('checks hex colours', () => {
    expect(assertHexColor('#1a2B3c')).toBe('#1a2B3c');
    expect(() => assertHexColor('blue')).toThrow('Invalid hex color format');
  });
});
