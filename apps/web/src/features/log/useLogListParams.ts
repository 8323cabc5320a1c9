import { LOG_SORT_FIELDS, LogType } from '@one-hub/contracts';
import { listSearch, parsePaging, wholeNumber } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { LogFilters, LogListParams } from './log.api.js';

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

/** Reads the list state from the query string, dropping values the server would refuse. */
export function parseLogListParams(search: URLSearchParams): LogListParams {
  const logType = wholeNumber(search.get('log_type'), 0) ?? 0;
  const channelId = wholeNumber(search.get('channel_id'), 1);
  const params: LogListParams = {
    ...emptyLogFilters,
    log_type: logType <= LogType.error ? logType : 0,
    start_timestamp: wholeNumber(search.get('start_timestamp'), 0) ?? 0,
    end_timestamp: wholeNumber(search.get('end_timestamp'), 0) ?? 0,
    channel_id: channelId === null ? '' : String(channelId),
    ...parsePaging(search, LOG_SORT_FIELDS),
  };
  for (const field of TEXT_FILTERS) params[field] = search.get(field)?.trim() ?? '';
  return params;
}

/** The log list state kept in the URL; changing anything but the page goes back to page 1. */
export function useLogListParams(): [LogListParams, (changes: Partial<LogListParams>) => void] {
  return useUrlListParams(parseLogListParams, listSearch);
}
