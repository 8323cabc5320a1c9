import { ANALYTICS_MAX_DAYS, daysBetween, isCalendarDay } from '@one-hub/contracts';

/** The quick choices of the period picker; `custom` takes two dates. */
export const PERIOD_PRESETS = ['today', '7d', '30d', 'month', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** A range of whole local days, both ends included, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

export interface Period extends DayRange {
  preset: PeriodPreset;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** YYYY-MM-DD of a moment in local time (the server dates its statistics in its own local time). */
export function localDay(moment: Date): string {
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

function parseDay(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, date ?? 1);
}

function addDays(day: string, days: number): string {
  const moment = parseDay(day);
  moment.setDate(moment.getDate() + days);
  return localDay(moment);
}

/** The days a preset covers on the day of `now`. */
export function presetRange(preset: Exclude<PeriodPreset, 'custom'>, now: Date = new Date()): DayRange {
  const today = localDay(now);
  if (preset === 'today') return { from: today, to: today };
  if (preset === '7d') return { from: addDays(today, -6), to: today };
  if (preset === '30d') return { from: addDays(today, -29), to: today };
  return { from: `${today.slice(0, 8)}01`, to: today };
}

export type RangeProblem = 'required' | 'invalid' | 'reversed' | 'tooLong';

/** What is wrong with each end of a custom range, if anything (spec §5: on the field). */
export function rangeErrors(range: DayRange): { from?: RangeProblem; to?: RangeProblem } {
  const errors: { from?: RangeProblem; to?: RangeProblem } = {};
  if (!range.from) errors.from = 'required';
  else if (!isCalendarDay(range.from)) errors.from = 'invalid';
  if (!range.to) errors.to = 'required';
  else if (!isCalendarDay(range.to)) errors.to = 'invalid';
  if (errors.from || errors.to) return errors;
  const span = daysBetween(range.from, range.to);
  if (span < 0) errors.to = 'reversed';
  else if (span > ANALYTICS_MAX_DAYS) errors.to = 'tooLong';
  return errors;
}

const DEFAULT_PRESET: Exclude<PeriodPreset, 'custom'> = '7d';

/** Reads the period from the query string; a custom range that does not hold falls back to 7 days. */
export function parsePeriod(search: URLSearchParams, now: Date = new Date()): Period {
  const preset = search.get('period') ?? '';
  if (preset === 'custom') {
    const range = { from: search.get('from') ?? '', to: search.get('to') ?? '' };
    const errors = rangeErrors(range);
    if (!errors.from && !errors.to) return { preset, ...range };
  } else if ((PERIOD_PRESETS as readonly string[]).includes(preset)) {
    const known = preset as Exclude<PeriodPreset, 'custom'>;
    return { preset: known, ...presetRange(known, now) };
  }
  return { preset: DEFAULT_PRESET, ...presetRange(DEFAULT_PRESET, now) };
}

/** Writes the period into `search` (other keys kept); the default leaves the URL clean. */
export function writePeriod(search: URLSearchParams, period: Period): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const key of ['period', 'from', 'to']) next.delete(key);
  if (period.preset !== DEFAULT_PRESET) next.set('period', period.preset);
  if (period.preset === 'custom') {
    next.set('from', period.from);
    next.set('to', period.to);
  }
  return next;
}

/** The Unix seconds `/api/analytics/period` takes: the first second of `from`, the last of `to`. */
export function rangeTimestamps(range: DayRange): { start_timestamp: number; end_timestamp: number } {
  const start = parseDay(range.from);
  const end = parseDay(range.to);
  end.setDate(end.getDate() + 1);
  return {
    start_timestamp: Math.floor(start.getTime() / 1000),
    end_timestamp: Math.floor(end.getTime() / 1000) - 1,
  };
}

/** Every day of the range, oldest first, plus any later or earlier day the server dated a row with. */
export function rangeDays(range: DayRange, extra: Iterable<string> = []): string[] {
  const days = new Set<string>();
  const span = Math.max(0, daysBetween(range.from, range.to));
  for (let offset = 0; offset <= span; offset++) days.add(addDays(range.from, offset));
  for (const day of extra) if (isCalendarDay(day)) days.add(day);
  return [...days].sort();
}
