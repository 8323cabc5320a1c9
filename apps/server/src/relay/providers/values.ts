import { isRecord, type Json, parseJson } from '@one-hub/contracts';
import type { ChatUsage } from './types.js';

/** Shared readers of untrusted JSON for every adapter. */
export { isRecord };

/** A finite number, else 0: counts in upstream answers are often missing or null. */
export const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * A vendor's token counts under its own field names, as OpenAI's usage; none when it counted no
 * token. Without a total field, or with 0 there, the total is the sum.
 */
export function namedUsage(
  usage: unknown,
  fields: { prompt: string; completion: string; total?: string },
): ChatUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const prompt = num(usage[fields.prompt]);
  const completion = num(usage[fields.completion]);
  if (prompt + completion <= 0) return undefined;
  const total = fields.total === undefined ? 0 : num(usage[fields.total]);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total || prompt + completion };
}

/**
 * An upstream's body or event parsed as JSON. When it is not JSON the error names `what` (answer,
 * stream event…) and adds `excerpt` of the text, for callers whose text may be shown (masked first).
 */
export function upstreamJson(body: Buffer | string, what: string, excerpt?: (text: string) => string): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const parsed = parseJson(text);
  if (parsed === undefined) throw new Error(`the upstream's ${what} is not JSON${excerpt ? `: ${excerpt(text)}` : ''}`);
  return parsed;
}

/** Like `upstreamJson`, for a body that must be a JSON object. */
export function upstreamObject(body: Buffer | string, what: string, excerpt?: (text: string) => string): Json {
  const parsed = upstreamJson(body, what, excerpt);
  if (!isRecord(parsed)) throw new Error(`the upstream's ${what} is not a JSON object`);
  return parsed;
}

/** The first 100 characters of a text, to show what an upstream sent instead of JSON. */
export const firstCharacters = (text: string): string => text.slice(0, 100);
