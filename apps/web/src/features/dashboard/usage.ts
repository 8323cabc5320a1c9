import { DASHBOARD_DAYS, type DashboardRow } from '@one-hub/contracts';
import {
  type LabelSeries,
  type LabelUsage,
  labelSeries,
  stackedDayData,
  type UsageMetric,
  usageByLabel,
} from '../../lib/usage.js';

export {
  type DayUsage,
  type LabelSeries,
  type LabelUsage,
  metricValue,
  NAMED_SERIES as NAMED_MODELS,
  totalUsage,
  USAGE_METRICS as usageMetrics,
  type UsageMetric,
  type UsageTotals,
  usageByDay,
} from '../../lib/usage.js';

const pad = (value: number) => String(value).padStart(2, '0');

/** YYYY-MM-DD of a date in local time (the server dates its rows in its own local time too). */
export function localDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function daysBefore(date: Date, days: number): Date {
  const copy = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  copy.setDate(copy.getDate() - days);
  return copy;
}

function parseLocalDate(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/**
 * The days the dashboard shows, oldest first: today and the seven before it. When the server's
 * clock is already on a later day (another time zone), the window ends on the server's day so no
 * row falls off the chart.
 */
export function dashboardDays(rows: readonly DashboardRow[], today: Date = new Date()): string[] {
  let end = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  for (const row of rows) {
    const date = parseLocalDate(row.Date);
    if (date && date > end) end = date;
  }
  const days: string[] = [];
  for (let offset = DASHBOARD_DAYS - 1; offset >= 0; offset--) days.push(localDate(daysBefore(end, offset)));
  return days;
}

const modelName = (row: DashboardRow) => row.ModelName;

/** Totals per model (`label`), the largest first (by quota, then requests, then name). */
export function usageByModel(rows: readonly DashboardRow[]): LabelUsage[] {
  return usageByLabel(rows, modelName);
}

/** The series of a per-model chart: the biggest models by `metric`, then "other" if any remain. */
export function modelSeries(models: readonly LabelUsage[], metric: UsageMetric): LabelSeries[] {
  return labelSeries(models, metric, 'm');
}

/** Rows for a stacked per-day chart: `{ date, m0, m1, …, other }` with `metric` values. */
export function modelDayData(
  rows: readonly DashboardRow[],
  days: readonly string[],
  series: readonly LabelSeries[],
  metric: UsageMetric,
): Array<Record<string, string | number>> {
  return stackedDayData(rows, days, series, metric, modelName);
}
