/**
 * Helpers every product profile uses to read a source row, whatever the driver made of it.
 *
 * The scalar readers (numbers, booleans, text, times, JSON) live in `values.ts` and are re-exported
 * here so a profile imports from one place. This file adds what translating one-api and new-api
 * rows needs on top: JSON objects and lists that never throw, comma/newline lists, and the clock.
 *
 * What drivers hand over, for reference:
 * - booleans: SQLite and MySQL 0/1 (MySQL `tinyint(1)`), PostgreSQL true/false, sometimes '0'/'1' text;
 * - BIGINT: a number, a numeric string or a bigint depending on the driver's settings;
 * - GORM's `deleted_at`: a Date (PostgreSQL, MySQL) or text (SQLite);
 * - NULL anywhere a Go pointer field (`*string`, `*int64`) was nil.
 */
import { toJsonValue, toNumber, toText } from './values.js';

export {
  toBool,
  toDateOnly,
  toInteger,
  toJsonText,
  toJsonValue,
  toNumber,
  toNumberMap,
  toText,
  toUnixSeconds,
} from './values.js';

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

/** The current time in Unix seconds: when a source only says "deleted" or "expired" without saying when. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
