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

  /** True once for a matching code; the code is then gone. */
  async consume(purpose: string, email: string, code: string): Promise<boolean> {
    const key = this.key(purpose, email);
    const expected = await this.cache.get(key);
    if (!expected || !safeEqual(expected, code.trim())) return false;
    await this.cache.delete(key);
    return true;
  }

  private key(purpose: string, email: string): string {
    return `verification:${purpose}:${email.toLowerCase()}`;
  }
}
