/**
 * Statistics days are calendar days in the time zone of the server process (the TZ environment
 * variable, else the system's). The reference system used the database session's zone, or a fixed
 * UTC+8 on SQLite; the process zone is the one setting that means the same on all three databases,
 * it is the zone the dashboard's "today" is computed in, and an operator controls it with TZ. Nodes
 * sharing a database must run with the same TZ.
 */

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** YYYY-MM-DD of a moment, in local time. */
export function formatLocalDate(moment: Date): string {
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

/** YYYY-MM-DD of a Unix time in seconds, in local time. */
export function localDateOf(seconds: number): string {
  return formatLocalDate(new Date(seconds * 1000));
}

/** The local date `days` days before the day of `now` (calendar days, so DST changes do not matter). */
export function localDateDaysBefore(now: Date, days: number): string {
  return formatLocalDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() - days));
}

/** The local day a Unix time falls in: its date, and its first second and the next day's first second. */
export function localDayOf(seconds: number): { date: string; start: number; end: number } {
  const moment = new Date(seconds * 1000);
  const midnight = new Date(moment.getFullYear(), moment.getMonth(), moment.getDate());
  const next = new Date(moment.getFullYear(), moment.getMonth(), moment.getDate() + 1);
  return {
    date: formatLocalDate(midnight),
    start: Math.floor(midnight.getTime() / 1000),
    end: Math.floor(next.getTime() / 1000),
  };
}
