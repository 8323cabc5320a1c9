import { DEFAULT_PAGE_SIZE, formatTimestamp } from '@one-hub/contracts';

/** Page sizes offered by both task lists. */
export const TASK_PAGE_SIZES = [10, 20, 50, 100] as const;

/** A whole number ≥ `minimum` from a query-string value, or null when it is missing or not one. */
export function wholeNumber(text: string | null, minimum: number): number | null {
  const value = Number(text);
  return text !== null && text !== '' && Number.isInteger(value) && value >= minimum ? value : null;
}

/** Paging and order read from the URL, dropping what the server would refuse. */
export function parsePaging(search: URLSearchParams, sortFields: readonly string[]) {
  const size = wholeNumber(search.get('size'), 1) ?? DEFAULT_PAGE_SIZE;
  const order = search.get('order') ?? '';
  return {
    page: wholeNumber(search.get('page'), 1) ?? 1,
    size: (TASK_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    order: sortFields.includes(order.replace(/^-/, '')) ? order : '',
  };
}

/** Writes only what is set (page 1 and the default size are left out), so a plain visit keeps a clean URL. */
export function listSearch(params: object): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (key === 'page' && value === 1) continue;
    if (key === 'size' && value === DEFAULT_PAGE_SIZE) continue;
    if (value !== '' && value !== 0) search.set(key, String(value));
  }
  return search;
}

/** The number of filters in use (neither '' nor 0), shown on the filter toggle of narrow screens. */
export function activeFilterCount(filters: object): number {
  return Object.values(filters).filter((value) => value !== '' && value !== 0).length;
}

/** Unix seconds as a `datetime-local` value with seconds; '' for 0 (no bound). */
export function toDateInput(seconds: number): string {
  return seconds ? formatTimestamp(seconds).replace(' ', 'T') : '';
}

/** A `datetime-local` value as Unix seconds; 0 when empty or not a date. */
export function fromDateInput(text: string): number {
  const milliseconds = text ? new Date(text).getTime() : Number.NaN;
  return Number.isNaN(milliseconds) ? 0 : Math.floor(milliseconds / 1000);
}
