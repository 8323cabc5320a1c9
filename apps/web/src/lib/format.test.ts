import { describe, expect, it } from 'vitest';
import { formatUsd } from './format.js';

describe('formatUsd', () => {
  it('keeps small prices readable and always shows cents', () => {
    expect(formatUsd(0.003)).toBe('$0.003');
    expect(formatUsd(3)).toBe('$3.00');
    expect(formatUsd(0.000015)).toBe('$0.000015');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
  });

  it('writes tiny prices out to the decimals asked for', () => {
    expect(formatUsd(0.0000002)).toBe('$0.00');
    expect(formatUsd(0.0000002, 8)).toBe('$0.0000002');
  });
});
