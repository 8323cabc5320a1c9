import type { Cache } from '../platform/cache/index.js';
import { sha256Hex } from '../platform/crypto.js';
import { AppError } from '../platform/errors.js';

/** Failed metrics Basic-auth attempts per client address (SIGN_IN_FAILURE_LIMIT per window). */
export interface MetricsAuthFailures {
  /**
   * Called after the credentials were compared. A failure is counted first, then the count decides:
   * past the limit the answer is a 429 whether or not the password was right, so guessing on after
   * the limit learns nothing. Only failures are counted, and a success resets nothing: a scraper
   * that knows the password cannot unlock an address that guessed (a shared NAT, say).
   */
  check(address: string, credentialsMatch: boolean): Promise<void>;
}

/**
 * Kept in the shared cache (Redis when configured, so every node counts together). The window is
 * fixed and starts at the first failure; `max` 0 turns the limit off.
 */
export function createMetricsAuthFailures(
  cache: Cache,
  settings: { max: number; windowSeconds: number },
): MetricsAuthFailures {
  // Hashed: the key does not hold the address, and cannot meet a sign-in counter's key.
  const key = (address: string) => `metrics-auth-failures:${sha256Hex(address)}`;
  const minutes = Math.ceil(settings.windowSeconds / 60);
  const locked = () =>
    new AppError(
      'rate_limited',
      `too many failed metrics sign-ins from this address; locked for up to ${minutes} minutes from the first failure`,
    );
  return {
    async check(address, credentialsMatch) {
      if (settings.max <= 0) return;
      if (!credentialsMatch) {
        // The increment is atomic: parallel guesses cannot all slip under the limit.
        if ((await cache.increment(key(address), settings.windowSeconds)) > settings.max) throw locked();
        return;
      }
      if (Number((await cache.get(key(address))) ?? 0) >= settings.max) throw locked();
    },
  };
}
