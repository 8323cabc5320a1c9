/** The four interface languages (spec §1). zh_CN is the default and the fallback. */
export const languages = ['zh_CN', 'zh_HK', 'en_US', 'ja_JP'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'zh_CN';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/**
 * Maps what browsers, cookies or the server say ("en-US", "zh-TW", "ja", "zh_CN") to one of our
 * languages, or undefined when none fits.
 */
export function toLanguage(code: string | null | undefined): Language | undefined {
  if (!code) return undefined;
  const normalized = code.trim().replace('-', '_');
  if (isLanguage(normalized)) return normalized;
  const [base = '', region = ''] = normalized.toLowerCase().split('_');
  if (base === 'en') return 'en_US';
  if (base === 'ja') return 'ja_JP';
  if (base === 'zh') return ['hk', 'tw', 'mo', 'hant'].includes(region) ? 'zh_HK' : 'zh_CN';
  return undefined;
}

/** The BCP 47 tag for `<html lang>`, which also makes the browser pick the right CJK glyph forms. */
export function htmlLangOf(language: Language): string {
  return language.replace('_', '-');
}
