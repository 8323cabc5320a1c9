import type { Redis } from 'ioredis';
import type { WindowClock } from '../../../domain/budget-windows.js';
import { LeaseRounds } from '../lease-rounds.js';
import type { MergedRule } from './budget-ledger.js';
import { MEASURES, type Measures } from './measures.js';
import { RENEW_WINDOWS } from './redis-window-lease-scripts.js';
import {
  fits,
  free,
  holdsNothing,
  isEmpty,
  limitOf,
  limitsOf,
  newWindowLease,
  renewalOf,
  takeRenewal,
  WINDOW_LEASE_TTL_MS,
  type WindowLease,
} from './window-lease.js';

/**
 * The node's half of budget window leases (redis-window-lease-scripts.ts has Redis's): a slice of
 * each window this node's requests use, held in Redis for the node, so steady requests hold and
 * settle in memory and Redis sees one script per flush for all of them. What a lease holds in Redis
 * is `held`; the node splits it into its running requests' holds, the use settled and not yet
 * flushed, and the free part (free = held − running − spent, per measure), so admitting within the
 * free part never takes more than the window has room for. A request that does not fit its leases
 * (a lease too small, a window that ended, a flush in flight) takes the per-request path: HOLD and
 * SETTLE, which count the leases as held. While a flush is in flight nothing new is admitted. A
 * flush that fails (an error, not an answer: Redis may have run it) is sent again with the same
 * arguments before anything else, its leases in flight until a reply confirms it; RENEW_WINDOWS
 * counts a round it has run once (the node's round mark).
 */
export interface WindowLeaseOptions {
  node: string;
  /** bres, where lease records live beside the per-request holds. */
  recordsKey: string;
  /** This node's round mark (bflush:<node>): the last round Redis ran, for a round sent again. */
  markKey: string;
  keyOf: (rule: MergedRule) => string;
  /** The 8 arguments that describe a counter to a script (RedisBudgetLedger.describe). */
  describe: (rule: MergedRule, now: number) => (string | number)[];
  clock: () => WindowClock;
  /** Loads a stored counter Redis does not hold. */
  load: (rule: MergedRule) => Promise<void>;
  onError?: ((error: unknown) => void) | undefined;
}

/** One RENEW_WINDOWS call: the leases it renews with the spend each carries, and its exact arguments. */
interface Round {
  /** Each lease, the spend it carries, and the allowances it is renewed under. */
  batch: Array<{ lease: WindowLease; spent: Measures; limits: Measures }>;
  command: (string | number)[];
  clock: WindowClock;
  now: number;
}

export class WindowLeases {
  private readonly leases = new Map<string, WindowLease>();
  private readonly rounds = new LeaseRounds<Round>(
    (everything) => this.nextRound(everything),
    (round) => this.send(round),
  );
  /** Numbers the rounds: RENEW_WINDOWS knows one it ran by it (the node's round mark). */
  private roundNumber = 0;

  constructor(
    private readonly redis: Redis,
    private readonly options: WindowLeaseOptions,
  ) {}

  private leaseOf(rule: MergedRule, now: number): WindowLease {
    let lease = this.leases.get(rule.id);
    if (!lease) {
      lease = newWindowLease(`W-${this.options.node}-${rule.id}`, this.options.keyOf(rule), rule, now);
      this.leases.set(rule.id, lease);
    }
    return lease;
  }

  /** Holds `demand` on the leases of every counter, all or none; undefined: per request. */
  hold(rules: MergedRule[], demand: Measures): WindowLease[] | undefined {
    const now = Date.now();
    const clock = this.options.clock();
    const leases: WindowLease[] = [];
    let fit = true;
    for (const rule of rules) {
      const lease = this.leaseOf(rule, now);
      lease.rule = rule;
      lease.lastUse = now;
      for (const measure of MEASURES) lease.largest[measure] = Math.max(lease.largest[measure], demand[measure]);
      if (fit && !fits(lease, demand, now, clock)) fit = false;
      leases.push(lease);
    }
    if (!fit) {
      for (const lease of leases) {
        for (const measure of MEASURES) lease.demand[measure] += demand[measure];
        lease.demandCount++;
      }
      return undefined;
    }
    for (const lease of leases) for (const measure of MEASURES) lease.running[measure] += demand[measure];
    return leases;
  }

  /**
   * Whether a renewal may let these rules' demand fit: a lease is in flight, its window ended, or it
   * ran low, and its last renewal granted room (or none was asked yet) and it is in use.
   */
  worthWaiting(rules: MergedRule[]): boolean {
    return rules.every((rule) => {
      const lease = this.leases.get(rule.id);
      return lease?.granting && (!isEmpty(lease.held) || lease.demandCount >= 2);
    });
  }

  /** One renewal of every lease, shared by the requests that wait for it. */
  renewNow(): Promise<void> {
    return this.rounds.renewNow();
  }

  /** Gives the running part of a hold back (its settlement, or its refusal further on). */
  release(leases: WindowLease[], held: Measures): void {
    for (const lease of leases) for (const measure of MEASURES) lease.running[measure] -= held[measure];
  }

  /**
   * Counts `used` on the leases (the hold released first): the quota counted is at most what every
   * lease has free, as SETTLE counts at most what the windows have room for; requests and tokens are
   * counted whole. → the quota counted, or undefined when a lease's window ended (then per request).
   */
  count(leases: WindowLease[], used: Measures): number | undefined {
    const now = Date.now();
    let quota = used.quota;
    for (const lease of leases) {
      if (now >= lease.end) return undefined;
      if (limitOf(lease.rule, 'quota') >= 0) quota = Math.min(quota, Math.max(0, free(lease, 'quota')));
    }
    for (const lease of leases) {
      lease.spent.quota += quota;
      lease.spent.requests += used.requests;
      lease.spent.tokens += used.tokens;
    }
    return quota;
  }

  /** Takes back use counted on a lease and not flushed yet; false when Redis must. */
  uncount(ruleId: string, start: number, measures: Measures): boolean {
    const lease = this.leases.get(ruleId);
    if (!lease || lease.start !== start || lease.inFlight) return false;
    if (MEASURES.some((measure) => lease.spent[measure] < measures[measure])) return false;
    for (const measure of MEASURES) lease.spent[measure] -= measures[measure];
    return true;
  }

  /** Returns the free parts of these rules' leases at once (a per-request hold was refused beside them). */
  async giveBack(rules: MergedRule[]): Promise<boolean> {
    let found = false;
    for (const rule of rules) {
      const lease = this.leases.get(rule.id);
      if (lease && MEASURES.some((measure) => free(lease, measure) > 0)) {
        lease.returning = true;
        lease.granting = false;
        found = true;
      }
    }
    if (found) await this.flush();
    return found;
  }

  /** Counts every lease's spend and renews it, in one script; one flush at a time (lease-rounds.ts). */
  flush(everything = false): Promise<void> {
    return this.rounds.flush(everything);
  }

  /** The leases to count and renew now, and the call that does it (undefined: none). */
  private nextRound(everything: boolean): Round | undefined {
    const now = Date.now();
    const batch: Round['batch'] = [];
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const [id, lease] of this.leases) {
      if (holdsNothing(lease, now, everything)) {
        if (isEmpty(lease.running)) this.leases.delete(id);
        continue;
      }
      const renewal = renewalOf(lease, now, everything);
      if (!renewal) continue;
      batch.push({ lease, spent: renewal.spent, limits: limitsOf(lease.rule) });
      keys.push(lease.key);
      args.push(...this.options.describe(lease.rule, now), ...renewal.args);
      lease.inFlight = true;
    }
    if (batch.length === 0) return undefined;
    const { recordsKey, markKey } = this.options;
    const expires = now + WINDOW_LEASE_TTL_MS;
    const command = [2 + keys.length, recordsKey, markKey, ...keys, now, expires, ++this.roundNumber, ...args];
    return { batch, command, clock: this.options.clock(), now };
  }

  /** Sends a round and takes its answers; its leases stay in flight until a reply confirms it. */
  private async send(round: Round): Promise<void> {
    const [count, ...rest] = round.command as [number, ...(string | number)[]];
    const answers = (await this.redis.eval(RENEW_WINDOWS, count, ...rest)) as (number | string)[][];
    for (const [index, { lease, spent, limits }] of round.batch.entries()) {
      const answer = (answers[index] as (number | string)[]).map(Number);
      if (!takeRenewal(lease, answer, { spent, limits, clock: round.clock, now: round.now })) {
        // The counter is gone from Redis, and the lease with it: its stored use is loaded again.
        this.options.load(lease.rule).catch((error: unknown) => this.options.onError?.(error));
      }
    }
  }
}
