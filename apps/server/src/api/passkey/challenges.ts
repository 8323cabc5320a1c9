import { isRecord, parseJson } from '@one-hub/contracts';
import type { Cache } from '../../platform/cache/index.js';

/** A ceremony must finish within five minutes of its start, as the options' timeout tells the browser. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

export interface PendingCeremony {
  challenge: string;
  /** Registration: the name the user chose. Login: unused. */
  alias?: string;
  /** Login started with a username: only that user's passkeys may finish it. */
  userId?: number;
}

/**
 * Challenges of ceremonies in progress, in the shared cache so that the node finishing one need
 * not be the node that started it. Each is taken exactly once: a replayed answer finds nothing.
 */
export class PasskeyChallenges {
  constructor(private readonly cache: Cache) {}

  async put(key: string, ceremony: PendingCeremony): Promise<void> {
    await this.cache.set(this.keyOf(key), JSON.stringify(ceremony), CHALLENGE_TTL_SECONDS);
  }

  /** The pending ceremony, removed so no second answer can use it; undefined when absent or taken. */
  async take(key: string): Promise<PendingCeremony | undefined> {
    const cacheKey = this.keyOf(key);
    const stored = await this.cache.get(cacheKey);
    // Only the caller whose delete succeeds gets it: two answers racing for one challenge get it once.
    if (stored === undefined || !(await this.cache.deleteIfEquals(cacheKey, stored))) return undefined;
    const ceremony = parseJson(stored);
    if (!isRecord(ceremony) || typeof ceremony.challenge !== 'string') return undefined;
    return ceremony as unknown as PendingCeremony;
  }

  private keyOf(key: string): string {
    return `passkey:${key}`;
  }
}
