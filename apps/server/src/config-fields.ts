import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * How one environment variable is read: the value types config.ts builds its schema from, each
 * with the message that names what is wrong.
 */

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''], 'must be true or false')
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Unset and empty both mean "not configured". */
export const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));
export const optionalUrl = optionalText.refine(
  (value) => value === undefined || URL.canParse(value),
  'must be a URL (http://… or https://…)',
);

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address or CIDR range: `10.0.0.0/8`, `::1`, `172.16.0.0/255.240.0.0`. */
function isAddressOrRange(text: string): boolean {
  const [address = '', bits, ...rest] = text.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  if (isIP(bits) !== 0) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

/**
 * `true` trusts every peer to name the client (only safe when nothing reaches the server but
 * through a proxy that overwrites X-Forwarded-For); a list trusts only the proxies named, so a
 * client cannot name itself by sending the header.
 */
export const trustedProxies = z.string().transform((value, context): boolean | string[] => {
  const text = value.trim().toLowerCase();
  if (['', 'false', '0', 'no'].includes(text)) return false;
  if (['true', '1', 'yes'].includes(text)) return true;
  const entries = text.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !PROXY_RANGE_NAMES.has(entry) && !isAddressOrRange(entry));
  if (wrong !== undefined) {
    context.addIssue({
      code: 'custom',
      message: `must be true, false or a comma-separated list of proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal ('${wrong}' is none of these)`,
    });
    return z.NEVER;
  }
  return entries;
});

/** Milliseconds an upstream may keep a relay request waiting (relay/executor.ts). */
export const upstreamTimeout = (fallback: number) =>
  z.coerce
    .number('must be a number of milliseconds')
    .int('must be a whole number of milliseconds')
    .min(1, 'must be at least 1 ms')
    .max(3_600_000, 'must be at most 3600000 ms (one hour)')
    .default(fallback);

/** Milliseconds a client may take to send its request (http/server-limits.ts). */
export const httpTimeout = (fallback: number) =>
  z.coerce
    .number('must be a number of milliseconds')
    .int('must be a whole number of milliseconds')
    .min(100, 'must be at least 100 ms')
    .max(3_600_000, 'must be at most 3600000 ms (one hour)')
    .default(fallback);
