import { TELEGRAM_MENU_SORT_FIELDS } from '@one-hub/contracts';
import { parsePaging, writePaging } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { TelegramListParams } from './telegram.api.js';

/** A field the server orders commands by (a leading '-' in `order` for descending). */
export type TelegramSortField = (typeof TELEGRAM_MENU_SORT_FIELDS)[number];

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseTelegramListParams(search: URLSearchParams): TelegramListParams {
  return { keyword: search.get('keyword')?.trim() ?? '', ...parsePaging(search, TELEGRAM_MENU_SORT_FIELDS) };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function telegramListSearch(params: TelegramListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.keyword) search.set('keyword', params.keyword);
  return writePaging(search, params);
}

/** The command list state kept in the URL; changing anything but the page goes back to page 1. */
export function useTelegramListParams(): [TelegramListParams, (changes: Partial<TelegramListParams>) => void] {
  return useUrlListParams(parseTelegramListParams, telegramListSearch);
}
