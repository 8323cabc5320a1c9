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
