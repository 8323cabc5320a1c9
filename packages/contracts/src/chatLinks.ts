import { isRecord } from './json.js';

/**
 * The `ChatLinks` option: a JSON list of chat clients `{id, name, url, show, sort}`. The
 * reference's console edits it in a data grid that needs a unique `id` on every row (without one
 * its settings page fails to render), so the server gives every row one.
 */
export interface ChatLink {
  /** Unique within the list; the reference's console makes random strings, the server `link-<n>`. */
  id: string | number;
  name: string;
  /** May hold `{key}` (the user's API key) and `{server}` (the gateway address). */
  url: string;
  show: boolean;
  /** Higher first. */
  sort: number;
}

/** The links of a fresh installation: the chat clients the reference's console offers by default. */
export const DEFAULT_CHAT_LINKS: ChatLink[] = [
  {
    id: 'link-1',
    name: 'ChatGPT Next',
    url: 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{server}"}',
    show: true,
    sort: 1,
  },
  {
    id: 'link-2',
    name: 'chatgpt-web-midjourney-proxy',
    url: 'https://vercel.ddaiai.com/#/?settings={"key":"{key}","url":"{server}"}',
    show: true,
    sort: 2,
  },
  { id: 'link-3', name: 'AMA', url: 'ama://set-api-key?server={server}&key={key}', show: false, sort: 3 },
  { id: 'link-4', name: 'OpenCat', url: 'opencat://team/join?domain={server}&token={key}', show: false, sort: 4 },
];

/** A usable row id: a non-empty string or a finite number. */
export const isChatLinkId = (id: unknown): id is string | number =>
  (typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id));

/**
 * Gives every row of a chat link list that lacks a usable id, or repeats one, an id of its own
 * (`link-<n>`, the lowest n not taken); other rows and properties stay as they are. Returns null
 * when nothing was missing, so a value that needs no repair is kept byte for byte.
 */
export function fillChatLinkIds(list: unknown[]): unknown[] | null {
  const taken = new Set(
    list
      .filter(isRecord)
      .map((row) => row.id)
      .filter(isChatLinkId)
      .map(String),
  );
  const seen = new Set<string>();
  let next = 1;
  let changed = false;
  const rows = list.map((row) => {
    if (!isRecord(row)) return row;
    if (isChatLinkId(row.id) && !seen.has(String(row.id))) {
      seen.add(String(row.id));
      return row;
    }
    while (taken.has(`link-${next}`)) next++;
    const id = `link-${next}`;
    taken.add(id);
    seen.add(id);
    changed = true;
    const { id: _unusable, ...rest } = row;
    return { id, ...rest };
  });
  return changed ? rows : null;
}

/**
 * The `ChatLinks` value to serve for a stored one: blank means "the defaults" (as in the
 * reference, whose console then shows its built-in links); a list gets its missing ids filled.
 * Anything else is served as stored, for an administrator to correct.
 */
export function chatLinksForReading(stored: string): string {
  if (stored.trim() === '') return JSON.stringify(DEFAULT_CHAT_LINKS);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return stored;
  }
  if (!Array.isArray(parsed)) return stored;
  const filled = fillChatLinkIds(parsed);
  return filled ? JSON.stringify(filled) : stored;
}
