import i18next from 'i18next';
import LanguageDetector, { type CustomDetector } from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { readText, removeItem, storageKeys, writeText } from '../lib/storage.js';
import {
  defaultLanguage,
  htmlLangOf,
  isLanguage,
  type Language,
  languages,
  resolveLanguage,
  toLanguage,
} from './languages.js';
import { namespaces, resources } from './resources.js';

/**
 * The site language from `/api/status` (set only when an administrator chose one). Until the
 * status answers, the copy stored by the previous visit stands in for it.
 */
let siteLanguage: string | undefined;

function storedSiteLanguage(): string | undefined {
  try {
    const info: unknown = JSON.parse(readText(storageKeys.siteInfo) ?? 'null');
    return typeof info === 'object' && info !== null && 'language' in info ? String(info.language) : undefined;
  } catch {
    return undefined;
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language].filter(Boolean);
}

/** The language this visitor should see now (see `resolveLanguage` for the order). */
function visitorLanguage(): Language {
  return resolveLanguage({
    chosen: readText(storageKeys.appLanguage),
    site: siteLanguage ?? storedSiteLanguage(),
    browser: browserLanguages(),
  });
}

const visitorLanguageDetector: CustomDetector = { name: 'visitorLanguage', lookup: visitorLanguage };

const detector = new LanguageDetector();
detector.addDetector(visitorLanguageDetector);

export const i18n = i18next.createInstance();

void i18n
  .use(detector)
  .use(initReactI18next)
  .init({
    resources,
    ns: namespaces,
    defaultNS: 'common',
    fallbackNS: false,
    supportedLngs: [...languages],
    nonExplicitSupportedLngs: false,
    load: 'currentOnly',
    fallbackLng: defaultLanguage,
    initAsync: false,
    showSupportNotice: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
    detection: {
      // One detector holds the whole order (choice, site, browser, zh_CN), so it can be tested alone.
      order: [visitorLanguageDetector.name],
      // Only an explicit choice is saved (setLanguage below), never a detected language.
      caches: [],
    },
  });

function syncDocumentLanguage(language: string): void {
  if (isLanguage(language)) document.documentElement.lang = htmlLangOf(language);
}
syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);

export function currentLanguage(): Language {
  return toLanguage(i18n.resolvedLanguage ?? i18n.language) ?? defaultLanguage;
}

/** The visitor picked a language: apply it and remember it under appLanguage. */
export function setLanguage(language: Language): void {
  writeText(storageKeys.appLanguage, language);
  void i18n.changeLanguage(language);
}

/**
 * `/api/status` answered with the site language ('' when no administrator set one): the console
 * follows it unless the visitor chose a language, and falls back to the browser's when it is unset.
 */
export function applyServerLanguage(code: string | undefined): void {
  siteLanguage = code ?? '';
  const language = visitorLanguage();
  if (language !== currentLanguage()) void i18n.changeLanguage(language);
}

/** Forgets the visitor's choice (used by tests and by a "use the site default" control). */
export function clearLanguageChoice(): void {
  removeItem(storageKeys.appLanguage);
}

export { defaultLanguage, type Language, languages };
