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
  private readonly byAddress = new Tally<string>();
  private readonly byUser = new Tally<number>();

  constructor(private readonly limits: BodyBudgetLimits) {}

  /** Takes `bytes`; refuses (taking nothing) when the address or the user would pass its budget. */
  take(address: string, user: number | undefined, bytes: number): AppError | undefined {
    const fromAddress = this.byAddress.of(address) + bytes;
    if (fromAddress > this.limits.perAddress) return overBudget('address', this.limits.perAddress);
    if (user !== undefined) {
      const fromUser = this.byUser.of(user) + bytes;
      if (fromUser > this.limits.perUser) return overBudget('API key owner', this.limits.perUser);
      this.byUser.set(user, fromUser);
    }
    this.byAddress.set(address, fromAddress);
    return undefined;
  }

  give(address: string, user: number | undefined, bytes: number): void {
    if (bytes <= 0) return;
    this.byAddress.set(address, Math.max(0, this.byAddress.of(address) - bytes));
    if (user !== undefined) this.byUser.set(user, Math.max(0, this.byUser.of(user) - bytes));
  }

  /** Bytes held now (tests). */
  held(address: string, user?: number): number {
    return user === undefined ? this.byAddress.of(address) : this.byUser.of(user);
  }

  /** Addresses and users with an entry, held or drained (tests). */
  get entries(): number {
    return this.byAddress.size + this.byUser.size;
  }
}

/** Entries a tally keeps at least before it sweeps out the drained ones. */
const SWEEP_FLOOR = 256;

/**
 * Counts by key that keeps a drained key at 0 rather than deleting it: a key that comes back (the
 * same client, request after request) is then updated in place. Deleting and setting it again left a
 * slot in the map's table every time, and the map made a new table every few requests (promoted, as
 * the map lives as long as the server). Drained keys are swept out when the map has doubled since
 * the last sweep, so it stays within twice the keys that hold bytes, and the sweeps cost O(1) a key.
 */
export class Tally<K> {
  private readonly counts = new Map<K, number>();
  private sweepAt = SWEEP_FLOOR;

  of(key: K): number {
    return this.counts.get(key) ?? 0;
  }

  set(key: K, count: number): void {
    if (this.counts.size >= this.sweepAt && !this.counts.has(key)) this.sweep();
    this.counts.set(key, count);
  }

  get size(): number {
    return this.counts.size;
  }

  private sweep(): void {
    for (const [key, count] of this.counts) if (count <= 0) this.counts.delete(key);
    this.sweepAt = Math.max(SWEEP_FLOOR, 2 * this.counts.size);
  }
}

function overBudget(who: string, limit: number): AppError {
  return new AppError(
    'rate_limited',
    `too many request bodies are being received at once from this ${who} (at most ${limit} bytes together); retry when earlier requests have finished`,
    { details: { code: 'rate_limit_exceeded' } },
  );
}
