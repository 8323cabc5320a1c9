/** Pure display and input helpers shared by the server and the console (spec §5, §9). */

export interface QuotaDisplayOptions {
  quotaPerUnit: number;
  displayInCurrency: boolean;
  digits?: number;
}

/** Quota as the console shows it: `$1.23` in currency mode, else `12.3k` / `4.5M` / `1.2B`. */
export function formatQuota(quota: number, options: QuotaDisplayOptions): string {
  if (options.displayInCurrency) {
    const amount = quota / (options.quotaPerUnit || 1);
    const digits = options.digits ?? 2;
    // Beyond 2 decimals, trailing zeros go: $0.000123 and $1.50, not $1.500000.
    const text = amount.toFixed(digits);
    return `$${digits > 2 ? text.replace(/(\.\d\d\d*?)0+$/, '$1') : text}`;
  }
  return shortenNumber(quota);
}

export function shortenNumber(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e9) return `${(value / 1e9).toFixed(1)}B`;
  if (magnitude >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (magnitude >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  return String(value);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` in local time from Unix seconds. */
export function formatTimestamp(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

export function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Trims every string inside nested arrays and plain objects. */
export function trimStrings<T>(value: T): T {
  if (typeof value === 'string') return value.trim() as T;
  if (Array.isArray(value)) return value.map((item) => trimStrings(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimStrings(item)])) as T;
  }
  return value;
}

export function removeTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

export function assertHexColor(color: string): string {
  if (!/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(color)) throw new Error('Invalid hex color format');
  return color;
}
