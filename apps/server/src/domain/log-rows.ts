import type { LogType } from '@one-hub/contracts';
import type { NewLogRow } from '../platform/db/index.js';

/**
 * Widths of the `logs` text columns that hold values from outside (migration 0001). PostgreSQL and
 * MySQL refuse a whole row when one value is longer, which would lose the record of a request
 * already billed or fail the change a log is written with; SQLite would keep any length.
 */
export const LOG_COLUMN_WIDTHS = {
  username: 64,
  token_name: 255,
  model_name: 255,
  source_ip: 128,
  request_id: 64,
} as const;

/** The value cut to the column's width: a clipped address or name beats a lost row. */
export function fitLogColumn(column: keyof typeof LOG_COLUMN_WIDTHS, value: string): string {
  const width = LOG_COLUMN_WIDTHS[column];
  return value.length > width ? value.slice(0, width) : value;
}

/** A log row of `type` with every other column empty or zero (user 0, time 0): fill in what applies. */
export function blankLogRow(type: LogType): NewLogRow {
  return {
    user_id: 0,
    username: '',
    created_at: 0,
    type,
    content: '',
    quota: 0,
    source_ip: '',
    token_name: '',
    model_name: '',
    prompt_tokens: 0,
    completion_tokens: 0,
    channel_id: 0,
    request_time: 0,
    is_stream: false,
    metadata: '{}',
    token_id: 0,
    request_id: '',
  };
}
