export type RichContentKind = 'url' | 'html' | 'markdown';

/** An http(s) URL alone is embedded; text that starts and ends with a tag is HTML; anything else is markdown. */
export function richContentKind(content: string): RichContentKind {
  const text = content.trim();
  if (/^https?:\/\/\S+$/i.test(text)) return 'url';
  if (/^<[a-z!][\s\S]*>$/i.test(text)) return 'html';
  return 'markdown';
}
