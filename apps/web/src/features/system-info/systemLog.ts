import type { SystemLogEntry } from '@one-hub/contracts';

/** The levels the viewer filters by, most severe first; `all` shows every line. */
export const LEVEL_FILTERS = ['all', 'error', 'warn', 'info', 'debug'] as const;
export type LevelFilter = (typeof LEVEL_FILTERS)[number];

const SEVERITY: Record<string, number> = { fatal: 60, error: 50, warn: 40, info: 30, debug: 20, trace: 10 };

/** A line's severity; a level the viewer does not know counts as info. */
export function severityOf(level: string): number {
  return SEVERITY[level.toLowerCase()] ?? SEVERITY.info ?? 30;
}

/** A line with a key for the table: its time and how many earlier lines share that time. */
export interface ShownLine extends SystemLogEntry {
  key: string;
}

/**
 * The lines to show, newest first: at or above the chosen level, and containing the search text
 * (in the message or the level, any case).
 */
export function shownLines(lines: readonly SystemLogEntry[], level: LevelFilter, search: string): ShownLine[] {
  const floor = level === 'all' ? 0 : severityOf(level);
  const needle = search.trim().toLowerCase();
  const seen = new Map<string, number>();
  const keyed = lines.map((line) => {
    const earlier = seen.get(line.Timestamp) ?? 0;
    seen.set(line.Timestamp, earlier + 1);
    return { ...line, key: `${line.Timestamp}#${earlier}` };
  });
  return keyed
    .filter((line) => severityOf(line.Level) >= floor)
    .filter((line) => !needle || `${line.Level} ${line.Message}`.toLowerCase().includes(needle))
    .reverse();
}

export type LevelColor = 'error' | 'warning' | 'info' | 'secondary';

export function levelColor(level: string): LevelColor {
  const severity = severityOf(level);
  if (severity >= 50) return 'error';
  if (severity >= 40) return 'warning';
  if (severity >= 30) return 'info';
  return 'secondary';
}
