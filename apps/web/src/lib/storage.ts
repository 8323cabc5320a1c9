export const storageKeys = {
  user: 'user',
  siteInfo: 'siteInfo',
  theme: 'theme',
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

/** Parses a stored JSON object; `isValid` guards against stale or hand-edited values. */
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
