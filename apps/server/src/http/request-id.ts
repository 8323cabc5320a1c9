import { randomString } from '../platform/crypto.js';

/** Every response names its request, so an operator can find it in the logs. */
export const requestIdHeader = 'X-Request-Id';
/** The reference system's name for the same header, kept for its clients. */
export const legacyRequestIdHeader = 'X-Oneapi-Request-Id';

export function nextRequestId(): string {
  const now = new Date();
  const stamp = now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 14);
  return `${stamp}${randomString(12)}`;
}
