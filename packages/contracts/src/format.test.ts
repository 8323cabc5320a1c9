import { describe, expect, it } from 'vitest';
import {
  assertHexColor,
  formatMoney,
  formatQuota,
  formatQuotaTick,
  formatTimestamp,
  removeTrailingSlash,
  shortenNumber,
  trimStrings,
} from './format.js';

describe('quota display (spec §9)', () => {
  it('keeps two decimals from a cent up and shows sub-cent amounts by their significant digits', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(1.234)).toBe('$1.23');
    expect(formatMoney(0.01)).toBe('$0.01');
    expect(formatMoney(1234.5)).toBe('$1234.50');
    expect(formatMoney(0.000298)).toBe('$0.000298');
    expect(formatMoney(0.0031)).toBe('$0.0031');
    expect(formatMoney(0.00031)).toBe('$0.00031');
    expect(formatMoney(0.000002)).toBe('$0.000002');
    expect(formatMoney(0.0012345)).toBe('$0.00123');
    expect(formatMoney(0.009999)).toBe('$0.01');
    expect(formatMoney(1e-9)).toBe('$0.000000001');
    expect(formatMoney(-0.000298)).toBe('-$0.000298');
    expect(formatMoney(-2.5)).toBe('-$2.50');
  });

  it('tells apart the totals of a few cheap calls in currency mode', () => {
    const site = { quotaPerUnit: 500_000, displayInCurrency: true };
    // 9 calls costing $0.000298 together: 149 quota.
    expect(formatQuota(149, site)).toBe('$0.000298');
    expect(formatQuota(160, site)).toBe('$0.00032');
    expect(formatQuota(1, site)).toBe('$0.000002');
    expect(formatQuota(5_000, site)).toBe('$0.01');
    expect(formatQuota(149, { ...site, displayInCurrency: false })).toBe('149');
  });

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

  it('keeps axis ticks apart: significant digits below a dollar', () => {
    const currency = { quotaPerUnit: 500_000, displayInCurrency: true };
    expect(formatQuotaTick(0, currency)).toBe('$0.00');
    expect(formatQuotaTick(2_500, currency)).toBe('$0.005');
    expect(formatQuotaTick(5_000, currency)).toBe('$0.01');
    expect(formatQuotaTick(6_250, currency)).toBe('$0.0125');
    expect(formatQuotaTick(40, currency)).toBe('$0.00008');
    expect(formatQuotaTick(150_000, currency)).toBe('$0.30');
    expect(formatQuotaTick(260_000, currency)).toBe('$0.52');
    expect(formatQuotaTick(1_250_000, currency)).toBe('$2.50');
    expect(formatQuotaTick(25_000, { ...currency, displayInCurrency: false })).toBe('25.0k');
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
