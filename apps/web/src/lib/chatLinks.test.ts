import { describe, expect, it } from 'vitest';
import { defaultChatLinks, fillChatLink, parseChatLinks } from './chatLinks.js';

describe('chat links (spec §3)', () => {
  it('falls back to the four defaults, listed by descending sort', () => {
    expect(parseChatLinks('').map((link) => [link.name, link.show, link.sort])).toEqual([
      ['OpenCat', false, 4],
      ['AMA', false, 3],
      ['chatgpt-web-midjourney-proxy', true, 2],
      ['ChatGPT Next', true, 1],
    ]);
    expect(parseChatLinks('not json')).toHaveLength(defaultChatLinks.length);
  });

  it('reads the site list and fills the placeholders', () => {
    const [link] = parseChatLinks(
      JSON.stringify([{ name: 'Mine', url: 'https://c.example/?k={key}&s={server}', show: true, sort: 9 }]),
    );
    expect(link?.name).toBe('Mine');
    expect(fillChatLink(link?.url ?? '', { key: 'sk-1', server: 'https://hub.example' })).toBe(
      'https://c.example/?k=sk-1&s=https://hub.example',
    );
  });
});
