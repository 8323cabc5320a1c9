import { formatTimestamp } from '@one-hub/contracts';

/** Unix seconds as a `datetime-local` value with seconds; '' for 0 (no bound). */
export function toDateInput(seconds: number): string {
  return seconds ? formatTimestamp(seconds).replace(' ', 'T') : '';
}

/** A `datetime-local` value as Unix seconds; 0 when empty or not a date. */
export function fromDateInput(text: string): number {
  const milliseconds = text ? new Date(text).getTime() : Number.NaN;
  return Number.isNaN(milliseconds) ? 0 : Math.floor(milliseconds / 1000);
}
