import type { AnalyticsPeriod, PeriodUsageRow } from '@one-hub/contracts';

import {
  type LabelSeries,
  type LabelUsage,
  labelSeries as rankSeries,
  stackedDayData as stackRows,
  usageByLabel as sumByLabel,
  type UsageMetric,
  type UsageTotals,
} from '../../lib/usage.js';

export {
  type DayUsage,
  emptyTotals,
  type LabelSeries,
  type LabelUsage,
  metricValue,
  NAMED_SERIES,
  totalUsage,
  USAGE_METRICS,
  type UsageMetric,
  type UsageTotals,
  usageByDay,
} from '../../lib/usage.js';

/** Average milliseconds per request, 0 without requests. */
export function averageLatency(totals: UsageTotals): number {
  return totals.requests > 0 ? totals.requestTime / totals.requests : 0;
}

/** How `/api/analytics/period` groups its usage rows (`model_type` is the model's owner). */
export type GroupType = 'model' | 'channel' | 'model_type';
export const GROUP_TYPES: readonly GroupType[] = ['model', 'channel', 'model_type'];

/** The period's rows name their entry (channel, model or owner) in `Channel`. */
const channelLabel = (row: PeriodUsageRow) => row.Channel;

/** Totals per label (channel, model or owner), the largest quota first, then requests, then name. */
export function usageByLabel(rows: readonly PeriodUsageRow[]): LabelUsage[] {
  return sumByLabel(rows, channelLabel);
}

/** The series of a stacked chart: the biggest labels by `metric`, then "other" when more remain. */
export function labelSeries(labels: readonly LabelUsage[], metric: UsageMetric): LabelSeries[] {
  return rankSeries(labels, metric, 's');
}

/** Rows for a stacked per-day chart: `{ date, s0, s1, …, other }` holding `metric` values. */
export function stackedDayData(
  rows: readonly PeriodUsageRow[],
  days: readonly string[],
  series: readonly LabelSeries[],
  metric: UsageMetric,
): Array<Record<string, string | number>> {
  return stackRows(rows, days, series, metric, channelLabel);
}

export interface DayRegistrations {
  date: string;
  users: number;
  invited: number;
}

/** New users per day of `days`, zero on days without any. */
export function registrationsByDay(
  rows: AnalyticsPeriod['user_statistics'],
  days: readonly string[],
): DayRegistrations[] {
  const byDate = new Map(rows.map((row) => [row.date, row]));
  return days.map((date) => ({
    date,
    users: byDate.get(date)?.user_count ?? 0,
    invited: byDate.get(date)?.inviter_user_count ?? 0,
  }));
}

export interface DayTopUps {
  date: string;
  /** Quota redeemed with codes. */
  redeemed: number;
  redeemers: number;
  /** Money paid through online orders. */
  paid: number;
}

/** Redemptions and paid orders per day of `days`. */
export function topUpsByDay(period: AnalyticsPeriod, days: readonly string[]): DayTopUps[] {
  const byDate = new Map(days.map((date) => [date, { date, redeemed: 0, redeemers: 0, paid: 0 }]));
  for (const row of period.redemption_statistics) {
    const day = byDate.get(row.date);
    if (!day) continue;
    day.redeemed += row.quota;
    day.redeemers += row.user_count;
  }
  for (const row of period.order_statistics) {
    const day = byDate.get(row.date);
    if (day) day.paid += row.order_amount;
  }
  return days.map((date) => byDate.get(date) ?? { date, redeemed: 0, redeemers: 0, paid: 0 });
}

/** Every date the period's answer mentions, so days the browser did not expect still get a slot. */
export function periodDates(period: AnalyticsPeriod | undefined): string[] {
  if (!period) return [];
  return [
    ...period.channel_statistics.map((row) => row.Date),
    ...period.user_statistics.map((row) => row.date),
    ...period.redemption_statistics.map((row) => row.date),
    ...period.order_statistics.map((row) => row.date),
  ];
}
