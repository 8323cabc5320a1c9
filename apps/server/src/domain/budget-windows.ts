import type {
  Budget,
  BudgetPeriod,
  BudgetScope,
  BudgetWindowMode,
  BudgetWindowView,
  UserGroupView,
} from '@one-hub/contracts';

/**
 * When a budget window starts and ends (issue 33). Two ways, chosen by the option BudgetWindowMode:
 * - rolling: a window opens with the first request after the last one closed and lasts its period
 *   (5 hours, 24 hours, 7 days, 30 days), so each subject's windows follow its own use;
 * - calendar: windows follow the clock of the site's time zone (SiteTimeZone): days from midnight,
 *   weeks from Monday, months from the 1st; 5-hour windows from midnight (0–5, 5–10, 10–15, 15–20,
 *   and 20–24, one hour shorter, so no window spans two days).
 * The per-minute window of a TPM limit is always the clock's minute.
 */
export type WindowPeriod = BudgetPeriod | 'minute';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
/** How long a rolling window lasts (and the TPM minute). */
export const ROLLING_MS: Record<WindowPeriod, number> = {
  minute: 60 * SECOND,
  '5h': 5 * HOUR,
  day: DAY,
  week: 7 * DAY,
  month: 30 * DAY,
};

export interface Window {
  /** Milliseconds since the epoch. */
  start: number;
  end: number;
}

export interface WindowClock {
  mode: BudgetWindowMode;
  timeZone: string;
}

/**
 * The window that holds `now`. For a rolling window `openedAt` is the start of the last window
 * opened (if any): it holds while it lasts, else a new one opens now.
 */
export function windowAt(period: WindowPeriod, clock: WindowClock, now: number, openedAt?: number): Window {
  if (period === 'minute') {
    const start = Math.floor(now / ROLLING_MS.minute) * ROLLING_MS.minute;
    return { start, end: start + ROLLING_MS.minute };
  }
  if (clock.mode === 'rolling') {
    if (openedAt !== undefined && openedAt <= now && now < openedAt + ROLLING_MS[period]) {
      return { start: openedAt, end: openedAt + ROLLING_MS[period] };
    }
    return { start: now, end: now + ROLLING_MS[period] };
  }
  return calendarWindow(period, clock.timeZone, now);
}

/** Whether a window opened at `start` is still the current one at `now`. */
export function windowHolds(period: WindowPeriod, clock: WindowClock, start: number, now: number): boolean {
  return windowAt(period, clock, now, start).start === start;
}

function calendarWindow(period: BudgetPeriod, timeZone: string, now: number): Window {
  const local = localParts(now, timeZone);
  const dayStart = zonedTime(timeZone, local.year, local.month, local.day, 0);
  switch (period) {
    case '5h': {
      const block = Math.floor(local.hour / 5) * 5;
      const start = zonedTime(timeZone, local.year, local.month, local.day, block);
      const end =
        block + 5 >= 24 ? nextDay(timeZone, local) : zonedTime(timeZone, local.year, local.month, local.day, block + 5);
      return { start, end };
    }
    case 'day':
      return { start: dayStart, end: nextDay(timeZone, local) };
    case 'week': {
      const sinceMonday = (local.weekday + 6) % 7;
      const monday = new Date(Date.UTC(local.year, local.month - 1, local.day - sinceMonday));
      const start = zonedTime(timeZone, monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), 0);
      const next = new Date(Date.UTC(local.year, local.month - 1, local.day - sinceMonday + 7));
      return { start, end: zonedTime(timeZone, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0) };
    }
    case 'month': {
      const next = new Date(Date.UTC(local.year, local.month, 1));
      return {
        start: zonedTime(timeZone, local.year, local.month, 1, 0),
        end: zonedTime(timeZone, next.getUTCFullYear(), next.getUTCMonth() + 1, 1, 0),
      };
    }
  }
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  /** 0 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function localParts(instant: number, timeZone: string): LocalParts & { minute: number; second: number } {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const year = parts.year ?? 1970;
  const month = parts.month ?? 1;
  const day = parts.day ?? 1;
  return {
    year,
    month,
    day,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
  };
}

/** The zone's offset from UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const local = localParts(instant, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(instant / SECOND) * SECOND;
}

/** The instant the zone's clock reads the given local time (the later one when it is skipped by DST). */
function zonedTime(timeZone: string, year: number, month: number, day: number, hour: number): number {
  const asUtc = Date.UTC(year, month - 1, day, hour);
  const guess = asUtc - offsetAt(asUtc, timeZone);
  return asUtc - offsetAt(guess, timeZone);
}

function nextDay(timeZone: string, local: LocalParts): number {
  const next = new Date(Date.UTC(local.year, local.month - 1, local.day + 1));
  return zonedTime(timeZone, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0);
}

/**
 * The starts (milliseconds, both included) of the windows of `period` that still hold at `now`: what
 * a stored window's `started_at` must fall in to be current. A rolling window holds for its length
 * after its start; a calendar window only if it started at the current window's start.
 */
export function currentStarts(period: BudgetPeriod, clock: WindowClock, now: number): { from: number; to: number } {
  if (clock.mode === 'rolling') return { from: now - ROLLING_MS[period] + 1, to: now };
  const { start } = calendarWindow(period, clock.timeZone, now);
  return { from: start, to: start };
}

/** A window's use, as a ledger or the store holds it. */
export interface WindowUse {
  start: number;
  quota: number;
  requests: number;
  tokens: number;
}

/** One subject's windows as the API shows them (GET /api/user/plan, a key's or a user's view). */
export interface BudgetSubject {
  scope: BudgetScope;
  /** `key:<id>`, `user:<id>` or `sub:<id>`. */
  subject: string;
  budgets: Budget[];
}

/** Current use of budget windows; the composition root hands in the relay's ledger (API ↛ relay). */
export interface BudgetUsageReader {
  windows(subjects: BudgetSubject[]): Promise<BudgetWindowView[]>;
  /** How windows are counted now (the options BudgetWindowMode and SiteTimeZone). */
  clock(): WindowClock;
}

/** The view of one window from its allowance and its current use (undefined: no window open). */
export function windowView(
  scope: BudgetScope,
  budget: Budget,
  use: WindowUse | undefined,
  clock: WindowClock,
  now: number,
): BudgetWindowView {
  const open = use && windowHolds(budget.period, clock, use.start, now) ? use : undefined;
  const window = open ? windowAt(budget.period, clock, now, open.start) : undefined;
  const calendar = clock.mode === 'calendar' ? windowAt(budget.period, clock, now) : undefined;
  const shown = window ?? calendar;
  return {
    scope,
    period: budget.period,
    quota: budget.quota ?? null,
    requests: budget.requests ?? null,
    tokens: budget.tokens ?? null,
    used_quota: open?.quota ?? 0,
    used_requests: open?.requests ?? 0,
    used_tokens: open?.tokens ?? 0,
    // Both rounded up, so a rolling window shows its exact length and never resets before it says.
    started_at: shown ? Math.ceil(shown.start / SECOND) : 0,
    resets_at: shown ? Math.ceil(shown.end / SECOND) : 0,
  };
}

/** A user's own windows and its group's (an enabled group's, applying to the user on its own): both count the user's use. */
export function userBudgetSubjects(
  user: { id: number; budgets: Budget[] },
  group: Pick<UserGroupView, 'budgets' | 'enable'> | undefined,
): BudgetSubject[] {
  const subject = `user:${user.id}`;
  const subjects: BudgetSubject[] = [{ scope: 'user', subject, budgets: user.budgets }];
  if (group?.enable) subjects.push({ scope: 'group', subject, budgets: group.budgets });
  return subjects;
}
