import i18next from 'i18next';
import LanguageDetector, { type CustomDetector } from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { readText, removeItem, storageKeys, writeText } from '../lib/storage.js';
import { defaultLanguage, htmlLangOf, isLanguage, type Language, languages, toLanguage } from './languages.js';
import { namespaces, resources } from './resources.js';

/**
 * The server's language (spec §1: second after the visitor's own choice). Until `/api/status`
 * answers, the copy stored by the previous visit stands in for it.
 */
let serverLanguage: Language | undefined;

const serverLanguageDetector: CustomDetector = {
  name: 'serverLanguage',
  lookup: () => serverLanguage ?? storedSiteLanguage(),
};

function storedSiteLanguage(): Language | undefined {
  try {
    const info: unknown = JSON.parse(readText(storageKeys.siteInfo) ?? 'null');
    return typeof info === 'object' && info !== null && 'language' in info
      ? toLanguage(String(info.language))
      : undefined;
  } catch {
    return undefined;
  }
}

const detector = new LanguageDetector();
detector.addDetector(serverLanguageDetector);

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
      // appLanguage, then the server's language; the others only matter when neither is known.
      order: ['localStorage', 'serverLanguage', 'querystring', 'cookie', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupLocalStorage: storageKeys.appLanguage,
      lookupQuerystring: 'lng',
      // Only an explicit choice is saved (setLanguage below), never a detected language.
      caches: [],
      convertDetectedLanguage: (code) => toLanguage(code) ?? code,
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

/** The server's language arrived: it applies unless the visitor chose one. */
export function applyServerLanguage(code: string | undefined): void {
  serverLanguage = toLanguage(code) ?? defaultLanguage;
  const chosen = toLanguage(readText(storageKeys.appLanguage));
  if (!chosen && serverLanguage !== currentLanguage()) void i18n.changeLanguage(serverLanguage);
}

/** Forgets the visitor's choice (used by tests and by a "use the site default" control). */
export function clearLanguageChoice(): void {
  removeItem(storageKeys.appLanguage);
}

export { defaultLanguage, type Language, languages };
