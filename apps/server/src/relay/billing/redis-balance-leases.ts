import type { Redis } from 'ioredis';
import type { Journal } from '../../platform/journal/journal.js';
import { LeaseRounds } from './lease-rounds.js';
import {
  heldReservation,
  type Reservation,
  type ReservationRequest,
  type SettleResult,
  settlementRecord,
} from './ledger.js';
import { RENEW_LEASES } from './redis-lease-scripts.js';

/**
 * The node's half of balance leases (redis-lease-scripts.ts has Redis's): a user's (and limited
 * key's) slice held in Redis for this node, so steady requests reserve and settle in memory and
 * Redis sees one script per flush for all leases. What a lease holds in Redis is `held`; the node
 * splits it into its running requests' reservations, the spend not yet flushed and the free part
 * (free = held − running − spent), so admitting within free never takes more than Redis holds.
 * While a flush is in flight nothing new is admitted from the lease (such requests take the
 * per-request path). A settlement may take beyond its reservation from the free part, as SETTLE
 * takes from the balance, but not while a flush is in flight: that flush may give the free part back
 * (the balance went below the lease) and keeps for sure only what running requests hold, so a charge
 * taken from the free part then could be more than Redis charges at the next flush (which charges no
 * more than the balance has), and the log row would not match the money. Such a settlement charges
 * at most its reservation. A flush that fails (an error, not an answer: Redis may have run it) is
 * sent again with the same arguments, so the same spend under the same lease mark, before anything
 * else: RENEW_LEASES counts a spend whose mark it has seen once. Until a reply confirms it, its
 * leases stay in flight. Only a node with a crash journal takes leases: the journal's replay is what
 * gives a killed node's leases back (journal-replay.ts, redis-lease-release.ts).
 */
interface Lease {
  id: string;
  userId: number;
  tokenId: number;
  unlimitedKeyId: number;
  held: number;
  running: number;
  spent: number;
  requests: number;
  channels: Map<number, number>;
  inFlight: boolean;
  /** Give everything but the running requests' part back at the next flush (idle, or a change). */
  returning: boolean;
  /** The largest reservation seen: no free part smaller than a few of them is taken. */
  largest: number;
  /** Reservations that found no room here since the last flush: a lease is taken after two. */
  demand: number;
  demandCount: number;
  lastUse: number;
  /** The last renewal granted a free part (or none was asked yet): a request short of room waits for the next. */
  granting: boolean;
  /** The user's balance after settled work at the last flush (other nodes' leases not deducted). */
  balance?: number | undefined;
}

export interface LeaseOptions {
  /** Unique per ledger instance: lease ids are `L-<node>-<user>-<key>-<unlimited key>`. */
  node: string;
  prefix: string;
  journal: () => Journal | undefined;
  /** Loads a balance Redis does not hold (the ledger's INIT). */
  load: (kind: 'u' | 't', id: number) => Promise<void>;
  onError?: ((error: unknown) => void) | undefined;
}

/** A lease's free part aims at this many flush intervals of its spend (250 ms each: 3 s). */
const TARGET_INTERVALS = 12;
/** No free part below this many of the largest reservation: the request goes per request instead. */
const MINIMUM_REQUESTS = 4;
/** The free part is at most this share of the spendable balance. */
const BALANCE_DIVISOR = 8;
/** A lease unused this long is given back. */
const IDLE_MS = 1000;

const free = (lease: Lease) => lease.held - lease.running - lease.spent;

/** One RENEW_LEASES call: the leases it settles, and the spend of each it carries. */
interface Round {
  batch: Array<{ lease: Lease; spent: number; requests: number; channels: Map<number, number> }>;
  /** The script's key count, keys and arguments, sent again exactly so until a reply confirms them. */
  command: (string | number)[];
}

export class BalanceLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly rounds = new LeaseRounds<Round>(
    (everything) => this.nextRound(everything),
    (round) => this.send(round),
  );

  constructor(
    private readonly redis: Redis,
    private readonly options: LeaseOptions,
  ) {}

  private static keyOf(request: Omit<Reservation, 'settled'>): string {
    return `${request.userId}-${request.tokenId ?? 0}-${request.unlimitedKeyId ?? 0}`;
  }

  /** Holds `amount` in the request's lease at once, when one has room; else undefined (per request). */
  reserve(request: ReservationRequest): Reservation | undefined {
    // Without a crash journal a killed node's lease could never be given back: per request then.
    if (!this.options.journal()) return undefined;
    const key = BalanceLeases.keyOf(request);
    let lease = this.leases.get(key);
    if (!lease) {
      lease = {
        id: `L-${this.options.node}-${key}`,
        userId: request.userId,
        tokenId: request.tokenId ?? 0,
        unlimitedKeyId: request.unlimitedKeyId ?? 0,
        held: 0,
        running: 0,
        spent: 0,
        requests: 0,
        channels: new Map(),
        inFlight: false,
        returning: false,
        largest: 0,
        demand: 0,
        demandCount: 0,
        lastUse: 0,
        granting: true,
      };
      this.leases.set(key, lease);
    }
    lease.lastUse = Date.now();
    lease.largest = Math.max(lease.largest, request.amount);
    // Only a lease Redis holds admits (a free model's 0 too: its settlement may still cost).
    if (lease.inFlight || lease.held === 0 || free(lease) < request.amount) {
      lease.demand += request.amount;
      lease.demandCount++;
      return undefined;
    }
    lease.running += request.amount;
    return heldReservation(request, lease.id, key);
  }

  /**
   * `reserve`, and when the lease is being renewed or has run low (and its last renewal granted
   * room), one renewal of all leases, shared by every request that waits for it, then `reserve`
   * again: a steady stream is served from leases, not per request while a lease refills.
   */
  reserveSoon(request: ReservationRequest): Reservation | undefined | Promise<Reservation | undefined> {
    const now = this.reserve(request);
    if (now) return now;
    const lease = this.leases.get(BalanceLeases.keyOf(request));
    if (!lease?.granting || (lease.held === 0 && lease.demandCount < 2)) return undefined;
    return this.afterRenewal(request);
  }

  private async afterRenewal(request: ReservationRequest): Promise<Reservation | undefined> {
    try {
      await this.rounds.renewNow();
    } catch (error) {
      this.options.onError?.(error);
      return undefined;
    }
    return this.reserve(request);
  }

  /**
   * `settle`, but an answer that outgrew its reservation while its lease's flush is in flight waits
   * for that flush first (it may give the free part back): then the charge is what Redis charges at
   * the next flush, and never capped at the reservation for want of knowing. Should the flush keep
   * failing (Redis unreachable), the charge is capped at the reservation, which is sure.
   */
  settleSoon(reservation: Reservation, cost: number, channelId: number): SettleResult | Promise<SettleResult> {
    const lease = this.leases.get(reservation.leaseKey ?? '') as Lease;
    if (!lease.inFlight || Math.floor(cost) <= reservation.amount) return this.settle(reservation, cost, channelId);
    return this.settleAfterFlight(lease, reservation, cost, channelId);
  }

  private async settleAfterFlight(
    lease: Lease,
    reservation: Reservation,
    cost: number,
    channelId: number,
  ): Promise<SettleResult> {
    for (let tries = 0; lease.inFlight && tries < 3; tries++) {
      try {
        // The flush running now, or (a failed one, its leases still in flight) the round sent again.
        await (this.rounds.current ?? this.rounds.renewNow());
      } catch (error) {
        this.options.onError?.(error);
      }
    }
    return this.settle(reservation, cost, channelId);
  }

  /** Settles a reservation `reserve` made: SETTLE's rule, within the lease. */
  settle(reservation: Reservation, cost: number, channelId: number): SettleResult {
    const lease = this.leases.get(reservation.leaseKey ?? '') as Lease;
    lease.running -= reservation.amount;
    // Its reservation is part of the free part now (no longer running). In flight, the rest of the
    // free part may be on its way back: only the reservation is sure.
    const room = lease.inFlight ? reservation.amount : Math.max(0, free(lease));
    const charged = Math.max(0, Math.min(Math.floor(cost), room));
    lease.spent += charged;
    lease.requests++;
    if (channelId > 0 && charged > 0) lease.channels.set(channelId, (lease.channels.get(channelId) ?? 0) + charged);
    const journal = this.options.journal();
    journal?.sharedSettlement(journal.nextSeq(), settlementRecord(reservation, charged, channelId), true);
    return {
      charged,
      shortfall: Math.max(0, cost - charged),
      ...(lease.balance === undefined ? {} : { balance: lease.balance - lease.spent }),
    };
  }

  /** An administrator changed the user's balance, or the key's: its leases go back at once. */
  giveBack(match: (lease: { userId: number; tokenId: number }) => boolean): void {
    let any = false;
    for (const lease of this.leases.values()) {
      if (match(lease)) {
        lease.returning = true;
        any = true;
      }
    }
    if (any) this.flush().catch((error: unknown) => this.options.onError?.(error));
  }

  /** Settles every lease and takes the next, in one script; one flush at a time (lease-rounds.ts). */
  flush(everything = false): Promise<void> {
    return this.rounds.flush(everything);
  }

  /** The leases to settle and renew now, and the call that does it (undefined: none). */
  private nextRound(everything: boolean): Round | undefined {
    const now = Date.now();
    const batch: Round['batch'] = [];
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const [key, lease] of this.leases) {
      const idle = now - lease.lastUse > IDLE_MS;
      if (lease.held === 0 && lease.spent === 0 && lease.requests === 0 && (idle || everything)) {
        if (lease.running === 0) this.leases.delete(key);
        continue;
      }
      const giveBack = everything || lease.returning || idle;
      const spent = lease.spent;
      const minimum = Math.max(1, MINIMUM_REQUESTS * lease.largest);
      const target = Math.max(minimum, (spent + lease.demand) * TARGET_INTERVALS);
      // Never below what running requests hold (a lost lease's spend may exceed what it held).
      const keep = Math.max(lease.running, giveBack ? 0 : lease.held - spent);
      const wanted = lease.held > 0 || lease.demandCount >= 2;
      const want = giveBack || !wanted || free(lease) >= target / 2 ? 0 : Math.max(minimum, target - free(lease));
      lease.demand = 0;
      lease.demandCount = 0;
      if (!giveBack && want === 0 && spent === 0 && lease.requests === 0) continue;
      batch.push({ lease, spent, requests: lease.requests, channels: new Map(lease.channels) });
      keys.push(...this.balanceKeys(lease));
      args.push(lease.id, lease.userId, lease.tokenId, lease.unlimitedKeyId, spent, lease.requests, keep);
      args.push(lease.running, want, minimum, BALANCE_DIVISOR, lease.channels.size, ...[...lease.channels].flat());
      lease.inFlight = true;
    }
    if (batch.length === 0) return undefined;
    const journal = this.options.journal();
    // Every lease settlement journaled so far is in this flush: the mark says so.
    const mark = journal?.nextSeq() ?? 0;
    const { prefix } = this.options;
    const command = [2 + keys.length, `${prefix}res`, `${prefix}pending`, ...keys, journal?.id ?? '', mark, ...args];
    return { batch, command };
  }

  /** Sends a round and takes its answers; should the call fail, the round is sent again first. */
  private async send(round: Round): Promise<void> {
    const [count, ...rest] = round.command as [number, ...(string | number)[]];
    const answers = (await this.redis.eval(RENEW_LEASES, count, ...rest)) as number[][];
    for (const [index, { lease, spent, requests, channels }] of round.batch.entries()) {
      const [status, , held, balance] = (answers[index] as number[]).map(Number) as number[];
      lease.spent -= spent;
      lease.requests -= requests;
      for (const [channel, amount] of channels) {
        const left = (lease.channels.get(channel) ?? 0) - amount;
        if (left > 0) lease.channels.set(channel, left);
        else lease.channels.delete(channel);
      }
      lease.granting = (held ?? 0) > lease.running + lease.spent;
      lease.held = held ?? 0;
      lease.balance = balance;
      lease.inFlight = false;
      lease.returning = false;
      // Not awaited: loading may flush the ledger, which waits for this flush.
      const load = status === -1 ? this.options.load('u', lease.userId) : undefined;
      const loadKey = status === -2 ? this.options.load('t', lease.tokenId) : undefined;
      for (const loading of [load, loadKey]) loading?.catch((error: unknown) => this.options.onError?.(error));
    }
  }

  private balanceKeys(lease: Lease): string[] {
    const { prefix } = this.options;
    return [
      `${prefix}u:${lease.userId}`,
      `${prefix}t:${lease.tokenId}`,
      `${prefix}uh:${lease.userId}`,
      `${prefix}th:${lease.tokenId}`,
    ];
  }
}
