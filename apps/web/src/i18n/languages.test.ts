import { describe, expect, it } from 'vitest';
import { resolveLanguage, toLanguage } from './languages.js';

describe('resolveLanguage', () => {
  it("puts the visitor's own choice first, over the site and the browser", () => {
    expect(resolveLanguage({ chosen: 'ja_JP', site: 'zh_HK', browser: ['en-US'] })).toBe('ja_JP');
  });

  it('uses the site language an administrator set when the visitor chose nothing', () => {
    expect(resolveLanguage({ chosen: null, site: 'zh_HK', browser: ['en-US', 'ja'] })).toBe('zh_HK');
  });

  it("follows the browser when no administrator set a site language ('' or absent)", () => {
    expect(resolveLanguage({ chosen: null, site: '', browser: ['en-US'] })).toBe('en_US');
    expect(resolveLanguage({ chosen: undefined, site: undefined, browser: ['ja-JP', 'en'] })).toBe('ja_JP');
  });

  it("takes the first of the browser's languages that the console speaks", () => {
    expect(resolveLanguage({ chosen: null, site: '', browser: ['fr-FR', 'de', 'zh-TW', 'en'] })).toBe('zh_HK');
  });

  it('falls back to zh_CN when nothing fits', () => {
    expect(resolveLanguage({ chosen: null, site: '', browser: ['fr-FR', 'ko'] })).toBe('zh_CN');
    expect(resolveLanguage({ chosen: null, site: null, browser: [] })).toBe('zh_CN');
  });

  it('skips a choice or site language it cannot read instead of stopping on it', () => {
    expect(resolveLanguage({ chosen: 'klingon', site: 'fr_FR', browser: ['en-GB'] })).toBe('en_US');
  });
});

describe('toLanguage', () => {
  it.each([
    ['en', 'en_US'],
    ['en-US', 'en_US'],
    ['en-GB', 'en_US'],
    ['ja', 'ja_JP'],
    ['ja-JP', 'ja_JP'],
    ['zh', 'zh_CN'],
    ['zh-CN', 'zh_CN'],
    ['zh-SG', 'zh_CN'],
    ['zh-Hans', 'zh_CN'],
    ['zh-Hans-HK', 'zh_CN'],
    ['zh-TW', 'zh_HK'],
    ['zh-HK', 'zh_HK'],
    ['zh-MO', 'zh_HK'],
    ['zh-Hant', 'zh_HK'],
    ['zh-Hant-TW', 'zh_HK'],
    ['zh_HK', 'zh_HK'],
    ['ja_JP', 'ja_JP'],
  ])('maps %s to %s', (code, language) => {
    expect(toLanguage(code)).toBe(language);
  });

  it.each(['', 'fr', 'de-DE', 'ko-KR'])('maps %j to nothing', (code) => {
    expect(toLanguage(code)).toBeUndefined();
  });
});
