import type { AnalyticsPeriod, PeriodUsageRow } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import {
  averageLatency,
  labelSeries,
  NAMED_SERIES,
  registrationsByDay,
  stackedDayData,
  topUpsByDay,
  totalUsage,
  usageByDay,
  usageByLabel,
} from './series.js';

function row(date: string, label: string, quota: number, requests = 1): PeriodUsageRow {
  return {
    Date: date,
    Channel: label,
    Quota: quota,
    RequestCount: requests,
    PromptTokens: 10 * requests,
    CompletionTokens: 5 * requests,
    RequestTime: 200 * requests,
  };
}

const days = ['2025-03-01', '2025-03-02', '2025-03-03'];
const rows = [row('2025-03-01', 'gpt-4o', 30, 2), row('2025-03-01', 'claude', 50), row('2025-03-03', 'gpt-4o', 5)];

describe('usage series', () => {
  it('sums every label per day, with zero days kept', () => {
    const daily = usageByDay(rows, days);
    expect(daily.map((day) => [day.date, day.quota, day.requests, day.tokens])).toEqual([
      ['2025-03-01', 80, 3, 45],
      ['2025-03-02', 0, 0, 0],
      ['2025-03-03', 5, 1, 15],
    ]);
  });

  it('totals the period and averages the response time per request', () => {
    const totals = totalUsage(rows);
    expect(totals).toMatchObject({ quota: 85, requests: 4, promptTokens: 40, completionTokens: 20, tokens: 60 });
    expect(averageLatency(totals)).toBe(200);
    expect(averageLatency(totalUsage([]))).toBe(0);
  });

  it('ranks labels by quota and stacks the biggest ones per day, the rest as other', () => {
    expect(usageByLabel(rows).map((entry) => [entry.label, entry.quota])).toEqual([
      ['claude', 50],
      ['gpt-4o', 35],
    ]);
    const many = Array.from({ length: NAMED_SERIES + 2 }, (_, index) => row('2025-03-02', `m.${index}`, 100 - index));
    const series = labelSeries(usageByLabel(many), 'quota');
    expect(series).toHaveLength(NAMED_SERIES + 1);
    expect(series.at(-1)).toEqual({ key: 'other', label: null });
    const data = stackedDayData(many, days, series, 'quota');
    expect(data[1]).toMatchObject({ date: '2025-03-02', s0: 100, other: 94 + 95 });
    expect(data[0]).toMatchObject({ s0: 0, other: 0 });
  });

  it('ranks by the chosen metric and leaves out labels with nothing of it', () => {
    const series = labelSeries(usageByLabel([row('d', 'a', 0, 5), row('d', 'b', 9, 1)]), 'requests');
    expect(series.map((entry) => entry.label)).toEqual(['a', 'b']);
    expect(labelSeries(usageByLabel([row('d', 'a', 0, 5)]), 'quota')).toEqual([]);
  });
});

describe('registrations and top-ups per day', () => {
  const period: AnalyticsPeriod = {
    user_statistics: [{ date: '2025-03-02', user_count: 3, inviter_user_count: 1 }],
    channel_statistics: [],
    redemption_statistics: [{ date: '2025-03-01', quota: 500, user_count: 2 }],
    order_statistics: [{ date: '2025-03-03', order_amount: 9.5 }],
  };

  it('fills every day of the range', () => {
    expect(registrationsByDay(period.user_statistics, days)).toEqual([
      { date: '2025-03-01', users: 0, invited: 0 },
      { date: '2025-03-02', users: 3, invited: 1 },
      { date: '2025-03-03', users: 0, invited: 0 },
    ]);
    expect(topUpsByDay(period, days)).toEqual([
      { date: '2025-03-01', redeemed: 500, redeemers: 2, paid: 0 },
      { date: '2025-03-02', redeemed: 0, redeemers: 0, paid: 0 },
      { date: '2025-03-03', redeemed: 0, redeemers: 0, paid: 9.5 },
    ]);
  });
});
