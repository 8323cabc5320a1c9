import type { StateColor } from '../components/StateChip.js';

/** Statuses of both task tables (midjourney-proxy's and the async tasks'); others show as "unknown". */
export const KNOWN_STATUSES = [
  'NOT_START',
  'SUBMITTED',
  'QUEUED',
  'MODAL',
  'IN_PROGRESS',
  'FAILURE',
  'SUCCESS',
  'UNKNOWN',
] as const;

const colors: Record<string, StateColor> = {
  SUCCESS: 'success',
  FAILURE: 'error',
  IN_PROGRESS: 'info',
  SUBMITTED: 'info',
  QUEUED: 'info',
  MODAL: 'warning',
  NOT_START: 'secondary',
};

/** Green when done, red when failed, blue while running, orange while waiting for input, grey otherwise. */
export function statusColor(status: string): StateColor {
  return colors[status] ?? 'secondary';
}

/** The translation key of a status: itself when known, `UNKNOWN` for anything else. */
export function statusKey(status: string): (typeof KNOWN_STATUSES)[number] {
  return (KNOWN_STATUSES as readonly string[]).includes(status)
    ? (status as (typeof KNOWN_STATUSES)[number])
    : 'UNKNOWN';
}

/** A progress as a whole percentage 0–100, from a number or a proxy's text ("45%"); 0 when unreadable. */
export function progressPercent(progress: string | number): number {
  const value = typeof progress === 'number' ? progress : Number.parseFloat(progress);
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** Seconds between two times (same unit, `perSecond` of them a second); null unless both are set and in order. */
export function elapsedSeconds(start: number, finish: number, perSecond = 1): number | null {
  if (!start || !finish || finish < start) return null;
  return Math.round((finish - start) / perSecond);
}

/** `45 s`, `3 min 4 s`, `2 h 5 min` — the parts as numbers, for the caller to translate. */
export function durationParts(seconds: number): { hours: number; minutes: number; seconds: number } {
  return { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60), seconds: seconds % 60 };
}
