import { DEFAULT_PAGE_SIZE, LOG_SORT_FIELDS, LogType } from '@one-hub/contracts';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { LogFilters, LogListParams } from './log.api.js';

export const LOG_PAGE_SIZES = [10, 20, 50, 100] as const;
export const LOG_TYPES = [LogType.topup, LogType.consume, LogType.manage, LogType.system, LogType.error] as const;

export const emptyLogFilters: LogFilters = {
  log_type: 0,
  start_timestamp: 0,
  end_timestamp: 0,
  model_name: '',
  token_name: '',
  request_id: '',
  username: '',
  channel_id: '',
  source_ip: '',
};

const TEXT_FILTERS = ['model_name', 'token_name', 'request_id', 'username', 'source_ip'] as const;

function wholeNumber(text: string | null, minimum: number): number | null {
  const value = Number(text);
  return text !== null && text !== '' && Number.isInteger(value) && value >= minimum ? value : null;
}

/** Reads the list state from the query string, dropping values the server would refuse. */
export function parseLogListParams(search: URLSearchParams): LogListParams {
  const logType = wholeNumber(search.get('log_type'), 0) ?? 0;
  const size = wholeNumber(search.get('size'), 1) ?? DEFAULT_PAGE_SIZE;
  const order = search.get('order') ?? '';
  const channelId = wholeNumber(search.get('channel_id'), 1);
  const params: LogListParams = {
    ...emptyLogFilters,
    log_type: logType <= LogType.error ? logType : 0,
    start_timestamp: wholeNumber(search.get('start_timestamp'), 0) ?? 0,
    end_timestamp: wholeNumber(search.get('end_timestamp'), 0) ?? 0,
    channel_id: channelId === null ? '' : String(channelId),
    page: wholeNumber(search.get('page'), 1) ?? 1,
    size: (LOG_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    order: (LOG_SORT_FIELDS as readonly string[]).includes(order.replace(/^-/, '')) ? order : '',
  };
  for (const field of TEXT_FILTERS) params[field] = search.get(field)?.trim() ?? '';
  return params;
}

/** Writes only what is set, so a plain visit keeps a clean URL. */
export function logListSearch(params: LogListParams): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (key === 'page' && value === 1) continue;
    if (key === 'size' && value === DEFAULT_PAGE_SIZE) continue;
    if (value !== '' && value !== 0) search.set(key, String(value));
  }
  return search;
}

/** The number of filters in use, shown on the filter toggle of narrow screens. */
export function activeFilterCount(filters: LogFilters): number {
  return Object.entries(filters).filter(([, value]) => value !== '' && value !== 0).length;
}

/** The log list state kept in the URL; changing anything but the page goes back to page 1. */
export function useLogListParams(): [LogListParams, (changes: Partial<LogListParams>) => void] {
  return useUrlListParams(parseLogListParams, logListSearch);
}

/** The filter part of the list state. */
export function filtersOf(params: LogListParams): LogFilters {
  const { page: _page, size: _size, order: _order, ...filters } = params;
  return filters;
}
