import { fillChatLink, parseChatLinks } from '../../lib/chatLinks.js';

/** Where `/jump?url=` may send the browser: back into this site, or out to an allowed site. */
export type JumpTarget = { kind: 'internal'; href: string } | { kind: 'external'; href: string };

export interface JumpRules {
  /** This console's origin, e.g. `https://hub.example.com`. */
  origin: string;
  /** The http(s) origins the page may leave for (see `allowedJumpOrigins`). */
  allowedOrigins: readonly string[];
}

const isWebAddress = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:';

/**
 * The origins of the chat clients the administrator configured (`chat_link` and `chat_links`, or the
 * default chat links): the only sites the console links out to through /jump. Placeholders are
 * filled as the chat-link menu fills them; `{server}` is the gateway itself.
 */
export function allowedJumpOrigins(
  site: { chat_link?: string; chat_links?: string; server_address?: string },
  origin: string,
): string[] {
  const templates = [site.chat_link ?? '', ...parseChatLinks(site.chat_links).map((entry) => entry.url)];
  const server = site.server_address || origin;
  const origins = new Set<string>();
  for (const template of templates) {
    if (!template.trim()) continue;
    try {
      const url = new URL(fillChatLink(template.trim(), { key: 'sk-key', server }));
      if (isWebAddress(url)) origins.add(url.origin);
    } catch {
      // Not an absolute address (or an app scheme's odd form): nothing to allow.
    }
  }
  return [...origins];
}

/**
 * The `url` query parameter of /jump when it may be followed: a path on this site, or an http(s)
 * address on one of the allowed origins. Anything else (`javascript:`, `data:`, other hosts,
 * `//host` network paths) gives null.
 */
export function jumpTarget(search: string, rules: JumpRules): JumpTarget | null {
  const raw = new URLSearchParams(search).get('url')?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    // An absolute address, or a path from the root of this site. A `//host` path names another
    // host: the origin check below judges it like any absolute address.
    url = raw.startsWith('/') ? new URL(raw, rules.origin) : new URL(raw);
  } catch {
    return null;
  }
  if (!isWebAddress(url) || url.username || url.password) return null;
  if (url.origin === rules.origin) return { kind: 'internal', href: url.href };
  if (rules.allowedOrigins.includes(url.origin)) return { kind: 'external', href: url.href };
  return null;
}

export const JUMP_DELAY_SECONDS = 3;
