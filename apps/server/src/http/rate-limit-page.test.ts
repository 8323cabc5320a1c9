import { describe, expect, it } from 'vitest';
import { pageLanguageOf, rateLimitPage } from './rate-limit-page.js';

describe('the language of the rate-limit page', () => {
  it.each([
    ['en-US,en;q=0.9', 'en_US'],
    ['ja,en-US;q=0.9,en;q=0.8', 'ja_JP'],
    ['zh-CN,zh;q=0.9', 'zh_CN'],
    ['zh', 'zh_CN'],
    ['zh-Hans-SG', 'zh_CN'],
    ['zh-TW,zh;q=0.9', 'zh_HK'],
    ['zh-HK', 'zh_HK'],
    ['zh-Hant', 'zh_HK'],
    // The first of the four in the visitor's order, past the languages the page is not written in.
    ['de-DE,de;q=0.9,ja;q=0.8,en;q=0.7', 'ja_JP'],
    // Quality values decide, not the order written.
    ['en;q=0.5,ja;q=0.9', 'ja_JP'],
    // A range the visitor refuses (q=0) is never chosen.
    ['ja;q=0,en;q=0.1', 'en_US'],
  ])('%s → %s', (header, language) => {
    expect(pageLanguageOf(header)).toBe(language);
  });

  it('is English when the browser asks for none of the four, or says nothing', () => {
    expect(pageLanguageOf('fr-FR,fr;q=0.9,de;q=0.8')).toBe('en_US');
    expect(pageLanguageOf(undefined)).toBe('en_US');
    expect(pageLanguageOf('*')).toBe('en_US');
    expect(pageLanguageOf(';;;,,q=,')).toBe('en_US');
  });
});

describe('the rate-limit page', () => {
  it('says in the chosen language which address is limited and when to retry', () => {
    const english = rateLimitPage('en_US', '203.0.113.7', 42);
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Your address (203.0.113.7) sent too many requests');
    expect(english).toContain('try again in 42 seconds');
    const japanese = rateLimitPage('ja_JP', '203.0.113.7', 42);
    expect(japanese).toContain('<html lang="ja">');
    expect(japanese).toContain('42 秒後にもう一度お試しください');
    expect(rateLimitPage('zh_CN', '203.0.113.7', 5)).toContain('请在 5 秒后重试');
    expect(rateLimitPage('zh_HK', '203.0.113.7', 5)).toContain('請於 5 秒後再試');
  });

  it('loads nothing else and escapes what it prints', () => {
    const page = rateLimitPage('en_US', '<b>"x"</b>', 1);
    expect(page).not.toContain('<b>');
    expect(page).toContain('&#60;b&#62;&#34;x&#34;&#60;/b&#62;');
    expect(page).not.toMatch(/<script|<link|src=/);
  });
});
