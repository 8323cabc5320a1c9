/**
 * The one set of readers for JSON whose shape is not known yet: parsed request and answer bodies,
 * stored JSON columns, settings. Callers check each member they use with `isRecord` and `typeof`.
 */

/** A JSON object as parsed: its members are still to be checked. */
export type Json = Record<string, unknown>;

/** True for a JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value a JSON text holds, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The strings of a JSON array text (a stored list of names); anything else reads as the empty list. */
export function parseJsonStringList(text: string): string[] {
  const value = parseJson(text || '[]');
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** The object a JSON text holds, or undefined when it is not a JSON object. */
export function parseJsonObject(text: string): Json | undefined {
  const value = parseJson(text);
  return isRecord(value) ? value : undefined;
}
