/** Every localStorage key the console uses (spec §3). Nothing else should touch localStorage. */
export const storageKeys = {
  /** The signed-in user as JSON (numeric role; username and avatar_url are read). */
  user: 'user',
  /** "light" or "dark". */
  theme: 'theme',
  /** The language the visitor chose; absent until they choose one. */
  appLanguage: 'appLanguage',
  /** The text of the last notice the visitor has seen. */
  notice: 'notice',
  /** A referral code taken from `?aff=`. */
  aff: 'aff',
  /** The last `/api/status` answer, used when the server cannot be reached. */
  siteInfo: 'siteInfo',
  quotaPerUnit: 'quota_per_unit',
  /** "true" or "false". */
  displayInCurrency: 'display_in_currency',
} as const;

export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

export function readText(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeText(key: StorageKey, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage can be full or blocked (private mode); the console still works without it.
  }
}

export function removeItem(key: StorageKey): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // See writeText.
  }
}

/** Parses a stored JSON value; `isValid` guards against stale or hand-edited values. */
export function readJson<T>(key: StorageKey, isValid: (value: unknown) => value is T): T | null {
  const text = readText(key);
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isValid(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  writeText(key, JSON.stringify(value));
}
