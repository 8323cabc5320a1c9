import { randomString } from '../platform/crypto.js';

/** Every response names its request, so an operator can find it in the logs. */
export const requestIdHeader = 'X-Request-Id';
/** The reference system's name for the same header, kept for its clients. */
export const legacyRequestIdHeader = 'X-Oneapi-Request-Id';

// Unique across nodes by a random prefix per process, within one by a counter; cheap per request.
const processPrefix = randomString(6);
let counter = 0;
let stampSecond = 0;
let stamp = '';

export function nextRequestId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(now)
      .toISOString()
      .replace(/[-:TZ.]/g, '')
      .slice(0, 14);
  }
  counter = (counter + 1) % 2_176_782_336;
  return `${stamp}${processPrefix}${counter.toString(36).padStart(6, '0')}`;
}
