import type { NewLogRow } from '../db/index.js';

/**
 * A log row as the journal writes it: a JSON head with its numbers in column order, then its texts
 * as they are, each after a tab (`{"l":seq,"n":[…],"f":stream}\tcontent\tusername…`). Every relayed
 * request writes one, so this is on the hot path: JSON.stringify of the row walked 17 named fields
 * and escaped every quote of the metadata, which is JSON itself, and that was most of the line's
 * cost (BENCHMARKS.md, fourth step). A row this form cannot carry (an explicit id, a column left
 * undefined or not a whole number, a text holding a tab, a line feed or a lone surrogate, which UTF-8
 * cannot hold as it is) is written as a JSON object (`{"l":seq,"r":row}`), as every row was before.
 */
const NUMBER_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'channel_id',
  'request_time',
  'token_id',
] as const satisfies ReadonlyArray<keyof NewLogRow>;
const TEXT_COLUMNS = [
  'content',
  'username',
  'token_name',
  'model_name',
  'source_ip',
  'metadata',
  'request_id',
] as const satisfies ReadonlyArray<keyof NewLogRow>;
// Every column but `id` is in one list or the other, or is `is_stream`: a column added to the
// table and not here fails the build.
type Unlisted = Exclude<
  keyof NewLogRow,
  'id' | 'is_stream' | (typeof NUMBER_COLUMNS)[number] | (typeof TEXT_COLUMNS)[number]
>;
const everyColumnListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyColumnListed;

/**
 * A text that can stand in the line as it is: a string with no tab (the separator), no line feed
 * (the line's end), and no lone surrogate (the file is UTF-8: one would be read back as U+FFFD,
 * where the database keeps its bytes).
 */
const isPlain = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.indexOf('\t') < 0 &&
  value.indexOf('\n') < 0 &&
  // ES2024's String.prototype.isWellFormed, in every Node this runs on (20.19+).
  (value as string & { isWellFormed(): boolean }).isWellFormed();

/** The columns hold what the tab-separated form can carry. */
function compactable(row: NewLogRow): boolean {
  return (
    row.id === undefined &&
    Number.isSafeInteger(row.user_id) &&
    Number.isSafeInteger(row.created_at) &&
    Number.isSafeInteger(row.type) &&
    Number.isSafeInteger(row.quota) &&
    Number.isSafeInteger(row.prompt_tokens) &&
    Number.isSafeInteger(row.completion_tokens) &&
    Number.isSafeInteger(row.channel_id) &&
    Number.isSafeInteger(row.request_time) &&
    Number.isSafeInteger(row.token_id) &&
    typeof row.is_stream === 'boolean' &&
    isPlain(row.content) &&
    isPlain(row.username) &&
    isPlain(row.token_name) &&
    isPlain(row.model_name) &&
    isPlain(row.source_ip) &&
    isPlain(row.metadata) &&
    isPlain(row.request_id)
  );
}

/** The journal line (with its line feed) that records `row` as record `seq`. */
export function logRowLine(seq: number, row: NewLogRow): string {
  if (!compactable(row)) return `{"l":${seq},"r":${JSON.stringify(row)}}\n`;
  // Safe integers print the same through a template as through JSON.stringify.
  return `{"l":${seq},"n":[${row.user_id},${row.created_at},${row.type},${row.quota},${row.prompt_tokens},${row.completion_tokens},${row.channel_id},${row.request_time},${row.token_id}],"f":${row.is_stream}}\t${row.content}\t${row.username}\t${row.token_name}\t${row.model_name}\t${row.source_ip}\t${row.metadata}\t${row.request_id}\n`;
}

/**
 * The row a log line carries: `value` is its JSON head, `texts` what followed it after tabs.
 * Undefined when they are not one of logRowLine's shapes.
 */
export function logRowOf(value: Record<string, unknown>, texts: readonly string[]): NewLogRow | undefined {
  if (value.r !== undefined) {
    return texts.length === 0 && value.r !== null && typeof value.r === 'object' ? (value.r as NewLogRow) : undefined;
  }
  const { n: numbers, f: stream } = value;
  if (!Array.isArray(numbers) || numbers.length !== NUMBER_COLUMNS.length || !numbers.every(Number.isSafeInteger))
    return undefined;
  if (texts.length !== TEXT_COLUMNS.length || typeof stream !== 'boolean') return undefined;
  const row: Record<string, unknown> = {};
  NUMBER_COLUMNS.forEach((column, index) => {
    row[column] = numbers[index];
  });
  TEXT_COLUMNS.forEach((column, index) => {
    row[column] = texts[index];
  });
  row.is_stream = stream;
  return row as unknown as NewLogRow;
}
