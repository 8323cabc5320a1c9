import type { UsageRow } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { labelSeries, NAMED_SERIES, stackedDayData, totalUsage, usageByDay, usageByLabel } from './usage.js';

interface Row extends UsageRow {
  Name: string;
}

const row = (date: string, name: string, quota: number, requests = 1): Row => ({
  Date: date,
  Name: name,
  Quota: quota,
  RequestCount: requests,
  PromptTokens: 2 * requests,
  CompletionTokens: 3 * requests,
  RequestTime: 100 * requests,
});
const nameOf = (entry: Row) => entry.Name;

describe('usage sums', () => {
  it('groups by the label the caller names and ranks by quota, requests, then name', () => {
    const rows = [row('d1', 'b', 5), row('d2', 'a', 5), row('d1', 'c', 9), row('d2', 'b', 0, 2)];
    expect(usageByLabel(rows, nameOf).map((entry) => [entry.label, entry.quota, entry.requests])).toEqual([
      ['c', 9, 1],
      ['b', 5, 3],
      ['a', 5, 1],
    ]);
  });

  it('sums days in the given order, with zeros for quiet days and rows outside ignored', () => {
    const days = usageByDay([row('d2', 'a', 4), row('d9', 'a', 7)], ['d1', 'd2']);
    expect(days.map((day) => [day.date, day.quota, day.tokens])).toEqual([
      ['d1', 0, 0],
      ['d2', 4, 5],
    ]);
    expect(totalUsage([row('d1', 'a', 1, 2), row('d2', 'b', 3)]).requestTime).toBe(300);
  });

  it('names the biggest entries with the caller’s key prefix and sums the rest as other', () => {
    const rows = Array.from({ length: NAMED_SERIES + 1 }, (_, index) => row('d1', `m.${index}`, 10 - index));
    const series = labelSeries(usageByLabel(rows, nameOf), 'quota', 'm');
    expect(series.map((entry) => entry.key)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'other']);
    const [day] = stackedDayData(rows, ['d1'], series, 'quota', nameOf);
    expect(day).toEqual({ date: 'd1', m0: 10, m1: 9, m2: 8, m3: 7, m4: 6, other: 5 });
  });
});
