import { z } from 'zod';
import { LogType } from './enums.js';
import { exportFormat } from './export.js';
import { MAX_INTEGER_COLUMN, pageQuery, unixSecondsFilter } from './paging.js';

/** Columns the log lists may be ordered by (`order=-created_at`); `id` is always the last tie-breaker. */
export const LOG_SORT_FIELDS = [
  'id',
  'created_at',
  'channel_id',
  'user_id',
  'token_name',
  'model_name',
  'type',
  'source_ip',
  'quota',
] as const;

/**
 * The log lists count matching rows up to this many: `total_count` is exact below it and equals it
 * when at least this many rows match (on tens of millions of rows an exact count takes seconds).
 */
export const LOG_COUNT_CAP = 10_000;

/** An exact-match text filter; empty means "no filter". */
function textFilter(field: string, maxLength: number) {
  return z
    .string(`${field} must be a single text value`)
    .trim()
    .max(maxLength, `${field} must be at most ${maxLength} characters`)
    .optional();
}

function idFilter(field: string) {
  return z.coerce
    .number(`${field} must be a number`)
    .int(`${field} must be an integer`)
    .min(0, `${field} must not be negative`)
    .max(MAX_INTEGER_COLUMN, `${field} is too large`)
    .optional();
}

const LOG_TYPE_CHOICES = 'log_type must be 0 (all), 1 (top-up), 2 (consume), 3 (manage), 4 (system) or 5 (error)';

const logTypeFilter = z.coerce
  .number('log_type must be a number')
  .int('log_type must be an integer')
  .min(0, LOG_TYPE_CHOICES)
  .max(LogType.error, LOG_TYPE_CHOICES)
  .optional();

/** Filters a signed-in user may apply to their own logs. */
const ownFilterFields = {
  start_timestamp: unixSecondsFilter('start_timestamp'),
  end_timestamp: unixSecondsFilter('end_timestamp'),
  model_name: textFilter('model_name', 255),
  token_name: textFilter('token_name', 255),
  request_id: textFilter('request_id', 64),
};

/** Filters only administrators may apply, because they reach across users and channels. */
const adminFilterFields = {
  ...ownFilterFields,
  username: textFilter('username', 64),
  channel_id: idFilter('channel_id'),
  source_ip: textFilter('source_ip', 128),
};

export const logListQuery = pageQuery.extend({ log_type: logTypeFilter, ...adminFilterFields });
export type LogListQuery = z.infer<typeof logListQuery>;

export const ownLogListQuery = pageQuery.extend({ log_type: logTypeFilter, ...ownFilterFields });
export type OwnLogListQuery = z.infer<typeof ownLogListQuery>;

/** The list's filters without its paging (an export has every matching row, newest first), plus the file format. */
const withoutPaging = { page: true, size: true, order: true } as const;
export const logExportQuery = logListQuery.omit(withoutPaging).extend({ format: exportFormat });
export type LogExportQuery = z.infer<typeof logExportQuery>;

export const ownLogExportQuery = ownLogListQuery.omit(withoutPaging).extend({ format: exportFormat });
export type OwnLogExportQuery = z.infer<typeof ownLogExportQuery>;

/** The reference names the channel filter of the statistics route `channel`; both spellings are accepted. */
export const logStatQuery = z.object({ ...adminFilterFields, channel: idFilter('channel') });
export type LogStatQuery = z.infer<typeof logStatQuery>;

export const ownLogStatQuery = z.object(ownFilterFields);
export type OwnLogStatQuery = z.infer<typeof ownLogStatQuery>;

export const deleteLogsQuery = z.object({
  target_timestamp: z.coerce
    .number('target_timestamp is required: a Unix time in seconds')
    .int('target_timestamp must be a whole number of seconds')
    .positive('target_timestamp is required: a Unix time in seconds')
    .max(Number.MAX_SAFE_INTEGER, 'target_timestamp is too large'),
});
export type DeleteLogsQuery = z.infer<typeof deleteLogsQuery>;

/**
 * What a consume log records about its billing (JSON text in the `metadata` column). Besides the
 * keys below, every extra-token kind `<kind>` (e.g. `cached_tokens`) has its count and `<kind>_ratio`.
 */
export interface LogMetadata {
  group_name?: string;
  backup_group_name?: string;
  is_backup_group?: boolean;
  price_type?: string;
  group_ratio?: number;
  input_ratio?: number;
  output_ratio?: number;
  /** Milliseconds until the first streamed chunk. */
  first_response?: number;
  [key: string]: unknown;
}

export interface LogChannelView {
  id: number;
  name: string;
}

export interface LogView {
  id: number;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_id: number;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  channel_id: number;
  /** Only on the administrators' list; null when the channel is unknown or deleted. */
  channel: LogChannelView | null;
  /** Milliseconds from request start to the end of the answer. */
  request_time: number;
  is_stream: boolean;
  source_ip: string;
  request_id: string;
  metadata: LogMetadata;
}

/** `quota`: consumption in the filtered range; `rpm`/`tpm`: consume requests and tokens in the last 60 s. */
export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
}

/**
 * Output speed the log table shows as "t/s": completion tokens over the whole request time.
 * 0 when there is nothing to measure.
 */
export function tokensPerSecond(completionTokens: number, requestTimeMs: number): number {
  if (!(completionTokens > 0) || !(requestTimeMs > 0)) return 0;
  return completionTokens / (requestTimeMs / 1000);
}
