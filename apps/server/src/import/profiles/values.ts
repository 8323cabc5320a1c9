/**
 * Reading one column of a source row, whatever the driver made of it: SQLite and MySQL give
 * booleans as 0/1, PostgreSQL as true/false; big integers may come as strings or bigints; GORM's
 * `deleted_at` is a date-time (a Date from PostgreSQL and MySQL, text from SQLite); NULL anywhere.
 * Shared by every product profile.
 */

export function toNumber(value: unknown, fallback = 0): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : fallback;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : fallback;
  }
  return fallback;
}

export function toInteger(value: unknown, fallback = 0): number {
  return Math.trunc(toNumber(value, fallback));
}

export function toBool(value: unknown): boolean {
  if (typeof value === 'string') return ['1', 't', 'true', 'y', 'yes'].includes(value.trim().toLowerCase());
  if (Buffer.isBuffer(value)) return value.length > 0 && value[0] === 1;
  return value === true || toNumber(value) !== 0;
}

export function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A JSON column as text: objects (PostgreSQL json, MySQL json) are serialised, empty text becomes `fallback`. */
export function toJsonText(value: unknown, fallback: string): string {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'object' && !Buffer.isBuffer(value) && !(value instanceof Date)) return JSON.stringify(value);
  const text = toText(value).trim();
  return text === '' || text === 'null' ? fallback : text;
}

/** A JSON column as a value; undefined when it is empty or not JSON. */
export function toJsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object' && !Buffer.isBuffer(value) && !(value instanceof Date)) return value;
  const text = toText(value).trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Milliseconds look like seconds × 1000: anything past the year 5000 in seconds is taken as ms. */
const MILLISECONDS_THRESHOLD = 100_000_000_000;

/**
 * A point in time as Unix seconds, or null for NULL / empty / the zero date. Accepts numbers
 * (seconds or milliseconds), Dates, and date-time text such as GORM writes on SQLite
 * ("2024-05-01 10:20:30.123456789+08:00").
 */
export function toUnixSeconds(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : Math.floor(value.getTime() / 1000);
  if (typeof value === 'number' || typeof value === 'bigint' || /^\s*-?\d+(\.\d+)?\s*$/.test(String(value))) {
    const number = toNumber(value);
    if (number <= 0) return null;
    return Math.floor(number > MILLISECONDS_THRESHOLD ? number / 1000 : number);
  }
  const text = String(value)
    .trim()
    .replace(' ', 'T')
    .replace(/(\.\d{3})\d+/, '$1')
    .replace(/ ?([+-]\d{2}):?(\d{2})$/, '$1:$2');
  if (text.startsWith('0000-00-00')) return null;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : Math.floor(parsed / 1000);
}

/** A DATE column as 'YYYY-MM-DD' (drivers are set to return DATE as text; a Date is read in local time). */
export function toDateOnly(value: unknown): string {
  if (value instanceof Date) {
    const pad = (part: number) => String(part).padStart(2, '0');
    return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  }
  return toText(value).slice(0, 10);
}

/** An object column with string keys and numeric values (ratios); anything else is left out. */
export function toNumberMap(value: unknown): Record<string, number> {
  const parsed = toJsonValue(value);
  const map: Record<string, number> = {};
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return map;
  for (const [key, entry] of Object.entries(parsed)) {
    const number = toNumber(entry, Number.NaN);
    if (Number.isFinite(number)) map[key] = number;
  }
  return map;
}

/** A JSON object column (or JSON text) as a plain object; `{}` for NULL, arrays, scalars or broken JSON. */
export function toJsonObject(value: unknown): Record<string, unknown> {
  const parsed = toJsonValue(value);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return parsed as Record<string, unknown>;
}

/** A JSON object of strings (e.g. a model mapping); entries whose value is not a string are left out. */
export function toStringMap(value: unknown): Record<string, string> {
  const map: Record<string, string> = {};
  for (const [key, entry] of Object.entries(toJsonObject(value))) {
    if (typeof entry === 'string') map[key] = entry;
  }
  return map;
}

/**
 * A list kept as text, split on commas and newlines (one-api's `models` and `subnet`, new-api's
 * `model_limits` and `allow_ips`), trimmed, without empty entries or repeats, in source order.
 */
export function toList(value: unknown): string[] {
  const seen = new Set<string>();
  for (const part of toText(value).split(/[,\n\r]+/)) {
    const entry = part.trim();
    if (entry !== '') seen.add(entry);
  }
  return [...seen];
}

/** A JSON object as text for a One Hub text column: '' when there is nothing in it. */
export function objectText(value: Record<string, unknown>): string {
  return Object.keys(value).length === 0 ? '' : JSON.stringify(value);
}

/** A number that must be positive to mean anything (ratios, prices); `fallback` otherwise. */
export function toPositive(value: unknown, fallback: number): number {
  const number = toNumber(value, Number.NaN);
  return Number.isFinite(number) && number > 0 ? number : fallback;
}
