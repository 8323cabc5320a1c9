import { DEFAULT_PAGE_SIZE } from '@one-hub/contracts';

/**
 * The pieces every paged list's URL state is read and written with (the `parse` and `write` of
 * `useUrlListParams`): whole numbers from the query string, and the order, page and size that
 * every list has, read so that values the server would refuse are dropped, written so that a plain
 * visit keeps a clean URL.
 */

/** The page sizes a list offers unless it says otherwise. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface Paging {
  /** A sort field, `-` in front for descending; '' for the server's default order. */
  order: string;
  page: number;
  size: number;
}

/** A whole number ≥ `minimum` from a query-string value, or null when it is missing or not one. */
export function wholeNumber(text: string | null, minimum: number): number | null {
  const value = Number(text);
  return text !== null && text !== '' && Number.isInteger(value) && value >= minimum ? value : null;
}

/**
 * Order, page and size from the URL: an order by a field not in `sortFields` (any field, when the
 * list names none) and a size not in `sizes` fall back to the defaults.
 */
export function parsePaging(
  search: URLSearchParams,
  sortFields?: readonly string[],
  sizes: readonly number[] = PAGE_SIZES,
): Paging {
  const size = wholeNumber(search.get('size'), 1) ?? DEFAULT_PAGE_SIZE;
  const order = search.get('order')?.trim() ?? '';
  // In this order: `listSearch` writes a state's fields in the order they were made.
  return {
    page: wholeNumber(search.get('page'), 1) ?? 1,
    size: sizes.includes(size) ? size : DEFAULT_PAGE_SIZE,
    order: !sortFields || sortFields.includes(order.replace(/^-/, '')) ? order : '',
  };
}

/** The filter part of a list state: everything but its order, page and size. */
export function filtersOf<F extends object>(params: F & Paging): F {
  const { page: _page, size: _size, order: _order, ...filters } = params;
  return filters as unknown as F;
}

/** Adds order, page and size to `search` where they differ from the defaults. */
export function writePaging(search: URLSearchParams, params: Paging): URLSearchParams {
  if (params.order) search.set('order', params.order);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.size !== DEFAULT_PAGE_SIZE) search.set('size', String(params.size));
  return search;
}

/**
 * Every field of a flat list state that is set (neither '' nor 0), page 1 and the default size
 * left out: the writer of lists whose filters are all text or numbers.
 */
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
