import type { UsageRow } from '@one-hub/contracts';

/**
 * Sums of usage rows (the dashboard's per-model rows and the analytics screen's per-channel,
 * per-model or per-owner rows) for the console's usage charts. Pure functions: every caller says
 * which field of its rows names the entry.
 */

/** What a usage chart plots. Tokens are input plus output. */
export type UsageMetric = 'quota' | 'requests' | 'tokens';
export const USAGE_METRICS: readonly UsageMetric[] = ['quota', 'requests', 'tokens'];

export interface UsageTotals {
  quota: number;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  tokens: number;
  /** Milliseconds summed over the requests. */
  requestTime: number;
}

export interface DayUsage extends UsageTotals {
  /** YYYY-MM-DD */
  date: string;
}

export interface LabelUsage extends UsageTotals {
  label: string;
}

/** The name of a row's entry (model, channel or owner). */
export type LabelOf<Row> = (row: Row) => string;

export function emptyTotals(): UsageTotals {
  return { quota: 0, requests: 0, promptTokens: 0, completionTokens: 0, tokens: 0, requestTime: 0 };
}

export function addUsage(total: UsageTotals, row: UsageRow): void {
  total.quota += row.Quota;
  total.requests += row.RequestCount;
  total.promptTokens += row.PromptTokens;
  total.completionTokens += row.CompletionTokens;
  total.tokens += row.PromptTokens + row.CompletionTokens;
  total.requestTime += row.RequestTime;
}

export function metricValue(usage: UsageTotals, metric: UsageMetric): number {
  if (metric === 'quota') return usage.quota;
  if (metric === 'requests') return usage.requests;
  return usage.tokens;
}

export function totalUsage(rows: readonly UsageRow[]): UsageTotals {
  const total = emptyTotals();
  for (const row of rows) addUsage(total, row);
  return total;
}

/** One entry per day of `days`, all entries summed, zero where nothing happened. */
export function usageByDay(rows: readonly UsageRow[], days: readonly string[]): DayUsage[] {
  const byDate = new Map(days.map((date) => [date, { date, ...emptyTotals() }]));
  for (const row of rows) {
    const day = byDate.get(row.Date);
    if (day) addUsage(day, row);
  }
  return days.map((date) => byDate.get(date) ?? { date, ...emptyTotals() });
}

/** Totals per entry, the largest quota first, then requests, then name. */
export function usageByLabel<Row extends UsageRow>(rows: readonly Row[], labelOf: LabelOf<Row>): LabelUsage[] {
  const byLabel = new Map<string, LabelUsage>();
  for (const row of rows) {
    const label = labelOf(row);
    let entry = byLabel.get(label);
    if (!entry) {
      entry = { label, ...emptyTotals() };
      byLabel.set(label, entry);
    }
    addUsage(entry, row);
  }
  return [...byLabel.values()].sort(
    (left, right) =>
      right.quota - left.quota || right.requests - left.requests || left.label.localeCompare(right.label),
  );
}

/** The entries a chart names one by one; the rest are summed as "other". */
export const NAMED_SERIES = 5;

export interface LabelSeries {
  /** A data key without dots: recharts reads dotted keys as paths, and model names have dots. */
  key: string;
  /** The entry's name, or null for "all the others". */
  label: string | null;
}

/**
 * The series of a stacked chart: the biggest entries by `metric` (keys `<prefix>0`, `<prefix>1`, …),
 * then "other" when more remain.
 */
export function labelSeries(labels: readonly LabelUsage[], metric: UsageMetric, keyPrefix = 's'): LabelSeries[] {
  const ranked = [...labels]
    .filter((entry) => metricValue(entry, metric) > 0)
    .sort((left, right) => metricValue(right, metric) - metricValue(left, metric));
  const named = ranked
    .slice(0, NAMED_SERIES)
    .map((entry, index) => ({ key: `${keyPrefix}${index}`, label: entry.label }));
  return ranked.length > NAMED_SERIES ? [...named, { key: 'other', label: null }] : named;
}

/** Rows for a stacked per-day chart: `{ date, s0, s1, …, other }` holding `metric` values. */
export function stackedDayData<Row extends UsageRow>(
  rows: readonly Row[],
  days: readonly string[],
  series: readonly LabelSeries[],
  metric: UsageMetric,
  labelOf: LabelOf<Row>,
): Array<Record<string, string | number>> {
  const keyOf = new Map(series.filter((entry) => entry.label !== null).map((entry) => [entry.label, entry.key]));
  const hasOther = series.some((entry) => entry.label === null);
  const byDate = new Map<string, Record<string, string | number>>();
  for (const date of days) {
    const entry: Record<string, string | number> = { date };
    for (const { key } of series) entry[key] = 0;
    byDate.set(date, entry);
  }
  for (const row of rows) {
    const entry = byDate.get(row.Date);
    const key = keyOf.get(labelOf(row)) ?? (hasOther ? 'other' : undefined);
    if (!entry || !key) continue;
    const usage = emptyTotals();
    addUsage(usage, row);
    entry[key] = Number(entry[key] ?? 0) + metricValue(usage, metric);
  }
  return days.map((date) => byDate.get(date) ?? { date });
}
