import type { NewLogRow } from '../db/index.js';

/**
 * A log row as the journal writes it: its numbers in one array and its texts in another, each in a
 * fixed column order, instead of the row as a JSON object. Every relayed request writes one, so
 * this is on the hot path: the numbers go in as they are and the texts through one JSON.stringify
 * of an array, where JSON.stringify of the row walked 17 named fields (BENCHMARKS.md, fourth step).
 * The line is also a third shorter without the column names.
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

const isText = (value: unknown): value is string => typeof value === 'string';

/** The columns, in each list's order, hold what the compact form can carry. */
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
    isText(row.content) &&
    isText(row.username) &&
    isText(row.token_name) &&
    isText(row.model_name) &&
    isText(row.source_ip) &&
    isText(row.metadata) &&
    isText(row.request_id)
  );
}

/**
 * The fields of a journal line that carry `row`: `"n":[numbers],"f":is_stream,"s":[texts]`, or
 * `"r":{row}` for a row the compact form cannot carry (an explicit id, a column left undefined or
 * not a whole number), which is read back as it was.
 */
export function logRowFields(row: NewLogRow): string {
  if (!compactable(row)) return `"r":${JSON.stringify(row)}`;
  // Safe integers print the same through a template as through JSON.stringify.
  const texts = JSON.stringify([
    row.content,
    row.username,
    row.token_name,
    row.model_name,
    row.source_ip,
    row.metadata,
    row.request_id,
  ]);
  return `"n":[${row.user_id},${row.created_at},${row.type},${row.quota},${row.prompt_tokens},${row.completion_tokens},${row.channel_id},${row.request_time},${row.token_id}],"f":${row.is_stream},"s":${texts}`;
}

/** The row a journal line's fields carry, or undefined when they are not one of logRowFields' shapes. */
export function logRowOf(value: Record<string, unknown>): NewLogRow | undefined {
  if (value.r !== undefined)
    return value.r !== null && typeof value.r === 'object' ? (value.r as NewLogRow) : undefined;
  const { n: numbers, s: texts, f: stream } = value;
  if (!Array.isArray(numbers) || numbers.length !== NUMBER_COLUMNS.length || !numbers.every(Number.isSafeInteger))
    return undefined;
  if (!Array.isArray(texts) || texts.length !== TEXT_COLUMNS.length || !texts.every(isText)) return undefined;
  if (typeof stream !== 'boolean') return undefined;
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
