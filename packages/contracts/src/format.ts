/** Pure display and input helpers shared by the server and the console (spec §5, §9). */

export interface QuotaDisplayOptions {
  quotaPerUnit: number;
  displayInCurrency: boolean;
  digits?: number;
}

/**
 * A dollar amount as the console shows it. A cent or more keeps two decimals ($1.23); below a
 * cent, three significant digits ($0.000298, $0.0031) so small charges stay distinguishable and
 * never read as $0.00; exact zero is $0.00.
 */
export function formatMoney(amount: number): string {
  return moneyText(amount, 0.01);
}

/**
 * The tick label of a money axis. Ticks are round steps that can sit between cents ($0.0125
 * after $0.01), so significant digits are kept up to a dollar, else neighbours would print the same.
 */
export function formatMoneyTick(amount: number): string {
  return moneyText(amount, 1);
}

/** Two decimals from `twoDecimalsFrom` up, three significant digits below it. */
function moneyText(amount: number, twoDecimalsFrom: number): string {
  const sign = amount < 0 ? '-' : '';
  const magnitude = Math.abs(amount);
  if (!Number.isFinite(magnitude)) return '$0.00';
  if (magnitude === 0 || magnitude >= twoDecimalsFrom) return `${sign}$${magnitude.toFixed(2)}`;
  // toFixed, not toPrecision, so that tiny amounts never turn into exponent notation.
  const decimals = Math.min(100, 2 - Math.floor(Math.log10(magnitude)));
  return `${sign}$${trimZeros(magnitude.toFixed(decimals))}`;
}

/** Drops trailing zeros after the second decimal: 0.003100 → 0.0031, 0.0100 → 0.01. */
function trimZeros(text: string): string {
  return text.replace(/(\.\d\d\d*?)0+$/, '$1');
}

/**
 * Quota as the console shows it: `formatMoney` in currency mode, else `12.3k` / `4.5M` / `1.2B`.
 * `digits` asks for more decimals on amounts of a cent or more (the cost of one request: $0.012345).
 */
export function formatQuota(quota: number, options: QuotaDisplayOptions): string {
  if (!options.displayInCurrency) return shortenNumber(quota);
  const amount = quota / (options.quotaPerUnit || 1);
  const digits = options.digits ?? 2;
  if (digits <= 2 || Math.abs(amount) < 0.01) return formatMoney(amount);
  return `${amount < 0 ? '-' : ''}$${trimZeros(Math.abs(amount).toFixed(digits))}`;
}

/** A quota axis tick: `formatMoneyTick` in currency mode, else the shortened raw number. */
export function formatQuotaTick(quota: number, options: QuotaDisplayOptions): string {
  if (!options.displayInCurrency) return shortenNumber(quota);
  return formatMoneyTick(quota / (options.quotaPerUnit || 1));
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
