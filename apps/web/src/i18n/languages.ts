/** The four interface languages (spec §1). zh_CN is the default and the fallback. */
export const languages = ['zh_CN', 'zh_HK', 'en_US', 'ja_JP'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'zh_CN';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** Chinese written in traditional characters: by script (zh-Hant) or, without one, by region. */
const traditionalScripts = ['hant'];
const traditionalRegions = ['hk', 'tw', 'mo'];

/**
 * Maps what browsers, cookies or the server say ("en-US", "zh-TW", "zh-Hant-TW", "ja", "zh_CN") to
 * one of our languages, or undefined when none fits.
 */
export function toLanguage(code: string | null | undefined): Language | undefined {
  if (!code) return undefined;
  const trimmed = code.trim();
  if (isLanguage(trimmed)) return trimmed;
  const [base = '', ...subtags] = trimmed.toLowerCase().split(/[-_]/);
  if (base === 'en') return 'en_US';
  if (base === 'ja') return 'ja_JP';
  if (base !== 'zh') return undefined;
  // A script subtag decides when present (zh-Hans-HK is simplified); otherwise the region does.
  const script = subtags.find((subtag) => subtag.length === 4);
  if (script) return traditionalScripts.includes(script) ? 'zh_HK' : 'zh_CN';
  return subtags.some((subtag) => traditionalRegions.includes(subtag)) ? 'zh_HK' : 'zh_CN';
}

/** What decides the console's language when it loads. */
export interface LanguageSources {
  /** What the visitor picked in the language menu (`appLanguage`), if anything. */
  chosen: string | null | undefined;
  /**
   * The site language from `/api/status`: set only when an administrator saved the `Language`
   * option; '' or absent on an installation that never chose one.
   */
  site: string | null | undefined;
  /** The browser's preferred languages, best first (`navigator.languages`). */
  browser: readonly string[];
}

/**
 * The console's language: the visitor's own choice, else the site language an administrator set,
 * else the first of the browser's languages that the console speaks, else zh_CN.
 */
export function resolveLanguage({ chosen, site, browser }: LanguageSources): Language {
  const own = toLanguage(chosen);
  if (own) return own;
  const siteLanguage = toLanguage(site);
  if (siteLanguage) return siteLanguage;
  for (const code of browser) {
    const spoken = toLanguage(code);
    if (spoken) return spoken;
  }
  return defaultLanguage;
}

/** The BCP 47 tag for `<html lang>`, which also makes the browser pick the right CJK glyph forms. */
export function htmlLangOf(language: Language): string {
  return language.replace('_', '-');
}
