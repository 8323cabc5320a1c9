import type { Cache } from '../../platform/cache/index.js';
import { randomString, safeEqual } from '../../platform/crypto.js';

const CODE_TTL_SECONDS = 10 * 60;

/**
 * Short-lived codes sent by e-mail (registration, password reset). Kept in the shared cache so any
 * node can check a code another node issued.
 */
export class VerificationCodes {
  constructor(private readonly cache: Cache) {}

  async issue(purpose: string, email: string, length = 6): Promise<string> {
    const code = randomString(length);
    await this.cache.set(this.key(purpose, email), code, CODE_TTL_SECONDS);
    return code;
  }

  /**
   * True once for a matching code; the code is then gone. The delete is conditional and atomic, so
   * of two requests racing with the same code exactly one wins. A wrong guess leaves the code alone.
   */
  async consume(purpose: string, email: string, code: string): Promise<boolean> {
    const key = this.key(purpose, email);
    const expected = await this.cache.get(key);
    if (!expected || !safeEqual(expected, code.trim())) return false;
    return this.cache.deleteIfEquals(key, expected);
  }

  private key(purpose: string, email: string): string {
    return `verification:${purpose}:${email.toLowerCase()}`;
  }
}
