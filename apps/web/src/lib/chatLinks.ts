/** One chat-client link of site info `chat_links` (spec §3). */
export interface ChatLinkEntry {
  name: string;
  /** May hold `{key}` (the user's API key) and `{server}` (the gateway address). */
  url: string;
  show: boolean;
  sort: number;
}

/** Used when the site sets no valid `chat_links`. */
export const defaultChatLinks: ChatLinkEntry[] = [
  {
    name: 'ChatGPT Next',
    url: 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{server}"}',
    show: true,
    sort: 1,
  },
  {
    name: 'chatgpt-web-midjourney-proxy',
    url: 'https://vercel.ddaiai.com/#/?settings={"key":"{key}","url":"{server}"}',
    show: true,
    sort: 2,
  },
  { name: 'AMA', url: 'ama://set-api-key?server={server}&key={key}', show: false, sort: 3 },
  { name: 'OpenCat', url: 'opencat://team/join?domain={server}&token={key}', show: false, sort: 4 },
];

function isEntry(value: unknown): value is ChatLinkEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.name === 'string' && typeof entry.url === 'string';
}

/** The entries of the `chat_links` JSON string, highest `sort` first; the defaults when it is empty or invalid. */
export function parseChatLinks(chatLinks: string | undefined): ChatLinkEntry[] {
  let entries = defaultChatLinks;
  try {
    const parsed: unknown = JSON.parse(chatLinks || 'null');
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every(isEntry)) {
      entries = parsed.map((entry) => ({ ...entry, show: entry.show !== false, sort: Number(entry.sort) || 0 }));
    }
  } catch {
    // Invalid JSON: keep the defaults.
  }
  return [...entries].sort((a, b) => b.sort - a.sort);
}

/** Fills `{key}` and `{server}` in a chat link URL. */
export function fillChatLink(url: string, values: { key: string; server: string }): string {
  return url.replaceAll('{key}', values.key).replaceAll('{server}', values.server);
}
