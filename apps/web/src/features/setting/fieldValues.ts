import { isRecord } from '@one-hub/contracts';

/** One chat link as the editor holds it; `sort: null` while its box does not hold a number. */
export interface ChatLinkRow {
  name: string;
  url: string;
  show?: boolean;
  sort?: number | null;
  [extra: string]: unknown;
}

/**
 * The rows of a `ChatLinks` value, or null when the text is not a JSON list of objects (then it
 * is edited as JSON). Rows keep their order and any other properties they carry.
 */
export function parseChatLinkRows(text: string): ChatLinkRow[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text || '[]');
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  if (!parsed.every(isRecord)) return null;
  return parsed.map((entry: Record<string, unknown>) => ({
    ...entry,
    name: typeof entry.name === 'string' ? entry.name : '',
    url: typeof entry.url === 'string' ? entry.url : '',
  }));
}

/** `a.com,b.com` → the distinct, trimmed, lower-case names. */
export function splitDomains(text: string): string[] {
  const names = text
    .split(/[,\s，]+/)
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(names)];
}
