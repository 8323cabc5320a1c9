import { clientKey, maskKey, type Paged, type TokenView } from '@one-hub/contracts';
import { InlineKeyboard } from 'grammy';

/** Keys shown per message; the buttons under it turn the pages. */
export const KEYS_PER_PAGE = 10;

/** Callback data of a page button: the Telegram user the list belongs to, and the page. */
const PAGE_DATA = /^apikey:(\d+):(\d+)$/;

export function pageButtonData(telegramId: number, page: number): string {
  return `apikey:${telegramId}:${page}`;
}

export function parsePageButton(data: string): { telegramId: number; page: number } | undefined {
  const match = PAGE_DATA.exec(data);
  return match ? { telegramId: Number(match[1]), page: Math.max(1, Number(match[2])) } : undefined;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[character] ?? character,
  );
}

/** One page of the user's keys as HTML: full `sk-…` keys only in a private chat. */
export function apiKeysText(page: Paged<TokenView>, privateChat: boolean): string {
  if (page.total_count === 0) return 'You have no API keys yet. Create one in the One Hub console.';
  const lines = page.data.map((token) => {
    const key = privateChat ? clientKey(token.key) : maskKey(clientKey(token.key));
    return `${escapeHtml(token.name)}: <code>${escapeHtml(key)}</code>`;
  });
  const pages = Math.max(1, Math.ceil(page.total_count / KEYS_PER_PAGE));
  const where = pages > 1 ? ` (page ${page.page} of ${pages})` : '';
  const hint = privateChat ? '' : '\nKeys are masked here; send /apikey in a private chat to see them in full.';
  return `Your API keys${where}:\n${lines.join('\n')}${hint}`;
}

/** Previous and next buttons, when there is more than one page. */
export function apiKeysKeyboard(page: Paged<TokenView>, telegramId: number): InlineKeyboard | undefined {
  const pages = Math.ceil(page.total_count / KEYS_PER_PAGE);
  if (pages <= 1) return undefined;
  const keyboard = new InlineKeyboard();
  if (page.page > 1) keyboard.text('‹ Previous', pageButtonData(telegramId, page.page - 1));
  if (page.page < pages) keyboard.text('Next ›', pageButtonData(telegramId, page.page + 1));
  return keyboard;
}
