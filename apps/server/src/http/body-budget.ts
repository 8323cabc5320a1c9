import { AppError } from '../platform/errors.js';

/**
 * Bytes of request bodies being received (and parsed) at once, per client address and per user.
 * A body takes its declared Content-Length before a byte is read (a chunked one takes its chunks as
 * they come) and gives it back when it has been parsed or abandoned. Without it one address, or one
 * key, can hold dozens of 10 MiB bodies in memory at once and make the server parse them together.
 */
export interface BodyBudgetLimits {
  perAddress: number;
  perUser: number;
}

/**
 * How many relay bodies of the largest size one key, and one address, may have in flight at once:
 * enough for a client that sends a few large images in parallel; an address carries more, since
 * several users may share it (an office behind one NAT).
 */
export const BODIES_IN_FLIGHT_PER_USER = 4;
export const BODIES_IN_FLIGHT_PER_ADDRESS = 8;

export function bodyBudgetLimits(bodyLimit: number): BodyBudgetLimits {
  return { perAddress: BODIES_IN_FLIGHT_PER_ADDRESS * bodyLimit, perUser: BODIES_IN_FLIGHT_PER_USER * bodyLimit };
}

export class BodyBudget {
  private readonly byAddress = new Map<string, number>();
  private readonly byUser = new Map<number, number>();

  constructor(private readonly limits: BodyBudgetLimits) {}

  /** Takes `bytes`; refuses (taking nothing) when the address or the user would pass its budget. */
  take(address: string, user: number | undefined, bytes: number): AppError | undefined {
    const fromAddress = (this.byAddress.get(address) ?? 0) + bytes;
    if (fromAddress > this.limits.perAddress) return overBudget('address', this.limits.perAddress);
    if (user !== undefined) {
      const fromUser = (this.byUser.get(user) ?? 0) + bytes;
      if (fromUser > this.limits.perUser) return overBudget('API key owner', this.limits.perUser);
      this.byUser.set(user, fromUser);
    }
    this.byAddress.set(address, fromAddress);
    return undefined;
  }

  give(address: string, user: number | undefined, bytes: number): void {
    if (bytes <= 0) return;
    release(this.byAddress, address, bytes);
    if (user !== undefined) release(this.byUser, user, bytes);
  }

  /** Bytes held now (tests). */
  held(address: string, user?: number): number {
    return user === undefined ? (this.byAddress.get(address) ?? 0) : (this.byUser.get(user) ?? 0);
  }
}

function release<K>(map: Map<K, number>, key: K, bytes: number): void {
  const left = (map.get(key) ?? 0) - bytes;
  if (left > 0) map.set(key, left);
  else map.delete(key);
}

function overBudget(who: string, limit: number): AppError {
  return new AppError(
    'rate_limited',
    `too many request bodies are being received at once from this ${who} (at most ${limit} bytes together); retry when earlier requests have finished`,
    { details: { code: 'rate_limit_exceeded' } },
  );
}
