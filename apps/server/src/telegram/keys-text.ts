import type { Paged, TokenView } from '@one-hub/contracts';

/** Shows the start and end of a key; the rest is hidden from a group's members. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '****';
  return `${key.slice(0, 4)}****${key.slice(-4)}`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[character] ?? character,
  );
}

/** The user's keys as HTML: full `sk-…` keys only in a private chat. */
export function apiKeysText(page: Paged<TokenView>, privateChat: boolean): string {
  if (page.data.length === 0) return 'You have no API keys yet. Create one in the One Hub console.';
  const lines = page.data.map((token) => {
    const key = privateChat ? token.key : maskKey(token.key);
    return `${escapeHtml(token.name)}: <code>sk-${escapeHtml(key)}</code>`;
  });
  const more =
    page.total_count > page.data.length ? `\n…and ${page.total_count - page.data.length} more in the console.` : '';
  const hint = privateChat ? '' : '\nKeys are masked here; send /apikey in a private chat to see them in full.';
  return `Your API keys:\n${lines.join('\n')}${more}${hint}`;
}
