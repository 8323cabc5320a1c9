import { INVOICE_SORT_FIELDS } from '@one-hub/contracts';
import { type Paging, parsePaging, writePaging } from '../../hooks/listParams.js';

export const INVOICE_PAGE_SIZES = [10, 20, 50] as const;

export type InvoiceListParams = Paging;

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseInvoiceListParams(search: URLSearchParams): InvoiceListParams {
  return parsePaging(search, INVOICE_SORT_FIELDS, INVOICE_PAGE_SIZES);
}

export function invoiceListSearch(params: InvoiceListParams): URLSearchParams {
  return writePaging(new URLSearchParams(), params);
}

/** `2026-10-01` → a month name in the console's language ("October 2026", "2026年10月"). */
export function monthLabel(month: string, language: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(language.replace('_', '-'), {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, number - 1, 1)));
}

/** Milliseconds as seconds with one decimal ("12.3 s"). */
export const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(1)} s`;
