import { describe, expect, it } from 'vitest';
import { quotaTick } from './axis.js';

const currency = { quotaPerUnit: 500_000, displayInCurrency: true };

describe('quota axis ticks', () => {
  it('keeps two significant digits below a dollar so small ticks stay apart', () => {
    expect(quotaTick(0, currency)).toBe('$0.00');
    expect(quotaTick(2_500, currency)).toBe('$0.005');
    expect(quotaTick(5_000, currency)).toBe('$0.01');
    expect(quotaTick(6_250, currency)).toBe('$0.013');
    expect(quotaTick(260_000, currency)).toBe('$0.52');
    expect(quotaTick(1_250_000, currency)).toBe('$2.50');
  });

  it('shortens raw quota when the site does not show currency', () => {
    expect(quotaTick(25_000, { quotaPerUnit: 500_000, displayInCurrency: false })).toBe('25.0k');
  });
});
