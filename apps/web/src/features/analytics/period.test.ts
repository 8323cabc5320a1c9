import { describe, expect, it } from 'vitest';
import { parsePeriod, presetRange, rangeDays, rangeErrors, rangeTimestamps, writePeriod } from './period.js';

const now = new Date(2025, 2, 14, 15, 30); // 14 March 2025, local time

describe('period presets', () => {
  it('covers today, the last 7 and 30 days and the month so far, today included', () => {
    expect(presetRange('today', now)).toEqual({ from: '2025-03-14', to: '2025-03-14' });
    expect(presetRange('7d', now)).toEqual({ from: '2025-03-08', to: '2025-03-14' });
    expect(presetRange('30d', now)).toEqual({ from: '2025-02-13', to: '2025-03-14' });
    expect(presetRange('month', now)).toEqual({ from: '2025-03-01', to: '2025-03-14' });
  });

  it('crosses month and year ends', () => {
    expect(presetRange('7d', new Date(2025, 0, 3))).toEqual({ from: '2024-12-28', to: '2025-01-03' });
  });
});

describe('custom range checks', () => {
  it('names what is wrong with each end', () => {
    expect(rangeErrors({ from: '', to: '2025-01-01' })).toEqual({ from: 'required' });
    expect(rangeErrors({ from: '2025-02-30', to: '' })).toEqual({ from: 'invalid', to: 'required' });
    expect(rangeErrors({ from: '2025-03-02', to: '2025-03-01' })).toEqual({ to: 'reversed' });
    expect(rangeErrors({ from: '2023-01-01', to: '2025-03-01' })).toEqual({ to: 'tooLong' });
    expect(rangeErrors({ from: '2025-03-01', to: '2025-03-01' })).toEqual({});
  });
});

describe('period in the URL', () => {
  it('reads presets and valid custom ranges, and falls back to 7 days otherwise', () => {
    expect(parsePeriod(new URLSearchParams(''), now)).toEqual({ preset: '7d', from: '2025-03-08', to: '2025-03-14' });
    expect(parsePeriod(new URLSearchParams('period=month'), now).from).toBe('2025-03-01');
    expect(parsePeriod(new URLSearchParams('period=custom&from=2025-01-01&to=2025-01-31'), now)).toEqual({
      preset: 'custom',
      from: '2025-01-01',
      to: '2025-01-31',
    });
    expect(parsePeriod(new URLSearchParams('period=custom&from=2025-02-01&to=2025-01-31'), now).preset).toBe('7d');
    expect(parsePeriod(new URLSearchParams('period=year'), now).preset).toBe('7d');
  });

  it('writes only what differs from the default and keeps other keys', () => {
    const base = new URLSearchParams('tab=users&period=custom&from=2025-01-01&to=2025-01-02');
    expect(writePeriod(base, { preset: '7d', from: 'x', to: 'y' }).toString()).toBe('tab=users');
    expect(writePeriod(base, { preset: 'today', from: '2025-03-14', to: '2025-03-14' }).toString()).toBe(
      'tab=users&period=today',
    );
    const custom = writePeriod(new URLSearchParams(), { preset: 'custom', from: '2025-01-05', to: '2025-01-09' });
    expect(parsePeriod(custom, now)).toEqual({ preset: 'custom', from: '2025-01-05', to: '2025-01-09' });
  });
});

describe('range to the API', () => {
  it('runs from the first second of the first day to the last second of the last day, local time', () => {
    const { start_timestamp, end_timestamp } = rangeTimestamps({ from: '2025-03-08', to: '2025-03-14' });
    expect(start_timestamp).toBe(new Date(2025, 2, 8).getTime() / 1000);
    expect(end_timestamp).toBe(new Date(2025, 2, 15).getTime() / 1000 - 1);
  });

  it('lists every day, with days the server reported outside the range added in order', () => {
    expect(rangeDays({ from: '2025-02-27', to: '2025-03-02' })).toEqual([
      '2025-02-27',
      '2025-02-28',
      '2025-03-01',
      '2025-03-02',
    ]);
    expect(rangeDays({ from: '2025-03-01', to: '2025-03-01' }, ['2025-03-02', '2025-03-01', 'junk'])).toEqual([
      '2025-03-01',
      '2025-03-02',
    ]);
  });
});
