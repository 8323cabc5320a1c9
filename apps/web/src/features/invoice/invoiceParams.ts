import { DEFAULT_PAGE_SIZE, INVOICE_SORT_FIELDS } from '@one-hub/contracts';

export const INVOICE_PAGE_SIZES = [10, 20, 50] as const;

export interface InvoiceListParams {
  order: string;
  page: number;
  size: number;
}

function positiveInteger(text: string | null, fallback: number): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseInvoiceListParams(search: URLSearchParams): InvoiceListParams {
  const size = positiveInteger(search.get('size'), DEFAULT_PAGE_SIZE);
  const order = search.get('order') ?? '';
  return {
    order: (INVOICE_SORT_FIELDS as readonly string[]).includes(order.replace(/^-/, '')) ? order : '',
    page: positiveInteger(search.get('page'), 1),
    size: (INVOICE_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

export function invoiceListSearch(params: InvoiceListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.order) search.set('order', params.order);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.size !== DEFAULT_PAGE_SIZE) search.set('size', String(params.size));
  return search;
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
