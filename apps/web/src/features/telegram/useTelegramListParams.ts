import { DEFAULT_PAGE_SIZE, TELEGRAM_MENU_SORT_FIELDS } from '@one-hub/contracts';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { TelegramListParams } from './telegram.api.js';

export const TELEGRAM_PAGE_SIZES = [10, 20, 50, 100] as const;
/** A field the server orders commands by (a leading '-' in `order` for descending). */
export type TelegramSortField = (typeof TELEGRAM_MENU_SORT_FIELDS)[number];

function positiveInteger(text: string | null, fallback: number): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseTelegramListParams(search: URLSearchParams): TelegramListParams {
  const size = positiveInteger(search.get('size'), DEFAULT_PAGE_SIZE);
  const order = search.get('order') ?? '';
  return {
    keyword: search.get('keyword')?.trim() ?? '',
    order: (TELEGRAM_MENU_SORT_FIELDS as readonly string[]).includes(order.replace(/^-/, '')) ? order : '',
    page: positiveInteger(search.get('page'), 1),
    size: (TELEGRAM_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function telegramListSearch(params: TelegramListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.keyword) search.set('keyword', params.keyword);
  if (params.order) search.set('order', params.order);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.size !== DEFAULT_PAGE_SIZE) search.set('size', String(params.size));
  return search;
}

/** The command list state kept in the URL; changing anything but the page goes back to page 1. */
export function useTelegramListParams(): [TelegramListParams, (changes: Partial<TelegramListParams>) => void] {
  return useUrlListParams(parseTelegramListParams, telegramListSearch);
}
