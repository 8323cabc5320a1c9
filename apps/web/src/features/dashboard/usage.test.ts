import type { DashboardRow } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { dashboardDays, modelDayData, modelSeries, totalUsage, usageByDay, usageByModel } from './usage.js';

const row = (date: string, model: string, requests: number, quota: number, tokens = [0, 0]): DashboardRow => ({
  Date: date,
  ModelName: model,
  RequestCount: requests,
  Quota: quota,
  PromptTokens: tokens[0] ?? 0,
  CompletionTokens: tokens[1] ?? 0,
  RequestTime: requests * 100,
});

describe('dashboard usage', () => {
  const today = new Date(2025, 2, 3, 15, 30);

  it('covers today and the seven days before it, across a month end', () => {
    expect(dashboardDays([], today)).toEqual([
      '2025-02-24',
      '2025-02-25',
      '2025-02-26',
      '2025-02-27',
      '2025-02-28',
      '2025-03-01',
      '2025-03-02',
      '2025-03-03',
    ]);
  });

  it('ends on the server’s day when it is ahead of the browser', () => {
    const days = dashboardDays([row('2025-03-04', 'gpt-4o', 1, 10)], today);
    expect(days).toHaveLength(8);
    expect(days.at(-1)).toBe('2025-03-04');
  });

  it('fills days without usage with zeros and sums the models of a day', () => {
    const rows = [row('2025-03-01', 'gpt-4o', 2, 100, [10, 5]), row('2025-03-01', 'gpt-4.1', 1, 50, [3, 4])];
    const days = usageByDay(rows, dashboardDays(rows, today));
    expect(days).toHaveLength(8);
    expect(days.filter((day) => day.requests === 0)).toHaveLength(7);
    expect(days[5]).toMatchObject({ date: '2025-03-01', requests: 3, quota: 150, tokens: 22, promptTokens: 13 });
  });

  it('ranks models and sums the rest as other', () => {
    const rows = ['a', 'b', 'c', 'd', 'e', 'f', 'g.1'].map((name, index) =>
      row('2025-03-03', name, 1, 10 * (index + 1)),
    );
    const models = usageByModel(rows);
    expect(models[0]?.label).toBe('g.1');
    const series = modelSeries(models, 'quota');
    expect(series.map((entry) => entry.key)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'other']);
    const data = modelDayData(rows, dashboardDays(rows, today), series, 'quota');
    expect(data.at(-1)).toMatchObject({ date: '2025-03-03', m0: 70, m4: 30, other: 30 });
    expect(data[0]).toMatchObject({ m0: 0, other: 0 });
    expect(totalUsage(rows).quota).toBe(280);
  });
});
