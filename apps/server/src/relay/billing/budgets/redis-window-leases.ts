import type { Redis } from 'ioredis';
import type { WindowClock } from '../../../domain/budget-windows.js';
import type { MergedRule } from './budget-ledger.js';
import { MEASURES, type Measure, type Measures, noMeasures } from './measures.js';
import { RENEW_WINDOWS } from './redis-window-lease-scripts.js';

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
export interface WindowLease {
  id: string;
  /** The counter's Redis key. */
  key: string;
  rule: MergedRule;
  held: Measures;
  running: Measures;
  spent: Measures;
  /** The window the lease was renewed in (-1: none yet); the spend is counted in it. */
  start: number;
  end: number;
  /** The clock the window was computed with: a changed setting ends the lease's use. */
  clock: string;
  /** The limits the lease was granted under, as `q|r|t`. */
  limits: string;
  inFlight: boolean;
  returning: boolean;
  granting: boolean;
  largest: Measures;
  demand: Measures;
  demandCount: number;
  lastUse: number;
  renewedAt: number;
}

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

/** A lease's free part aims at this many flush intervals of its use (250 ms each: 3 s). */
const TARGET_INTERVALS = 12;
/** No free part below this many of the largest demand: requests go per request instead. */
const MINIMUM_REQUESTS = 4;
/** The free part of a measure is at most this share of the window's room. */
const ROOM_DIVISOR = 8;
/** A lease unused this long is given back. */
const IDLE_MS = 1000;
/** A lease record lives this long in Redis unless renewed (a dead node's is then counted as used). */
export const WINDOW_LEASE_TTL_MS = 30_000;
/** A lease with nothing else to flush is renewed this often, to keep its record alive. */
const RECORD_RENEWAL_MS = WINDOW_LEASE_TTL_MS / 3;

const limitOf = (rule: MergedRule, measure: Measure): number => rule.limit[measure] ?? -1;
const limitsKey = (rule: MergedRule): string =>
  `${limitOf(rule, 'quota')}|${limitOf(rule, 'requests')}|${limitOf(rule, 'tokens')}`;
const clockKey = (clock: WindowClock): string => `${clock.mode}|${clock.timeZone}`;
const free = (lease: WindowLease, measure: Measure): number =>
  lease.held[measure] - lease.running[measure] - lease.spent[measure];
const isEmpty = (measures: Measures): boolean =>
  measures.quota === 0 && measures.requests === 0 && measures.tokens === 0;

/** A measure a demand must find room for: a limited one the request uses (every request counts one). */
const checked = (rule: MergedRule, measure: Measure, demand: Measures): boolean =>
  limitOf(rule, measure) >= 0 && (measure === 'requests' || demand[measure] > 0);

/** One RENEW_WINDOWS call: the leases it renews with the spend each carries, and its exact arguments. */
interface Round {
  /** Each lease, the spend it carries, and the allowances it is renewed under. */
  batch: Array<{ lease: WindowLease; spent: Measures; limits: string }>;
  command: (string | number)[];
  clock: string;
  now: number;
}

export class WindowLeases {
  private readonly leases = new Map<string, WindowLease>();
  private running: Promise<void> | null = null;
  private renewal: Promise<void> | null = null;
  private rounds = 0;
  /** A round whose call failed: Redis may have run it, so it is sent again as it was, first. */
  private unconfirmed: Round | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly options: WindowLeaseOptions,
  ) {}

  private leaseOf(rule: MergedRule, now: number): WindowLease {
    let lease = this.leases.get(rule.id);
    if (!lease) {
      lease = {
        id: `W-${this.options.node}-${rule.id}`,
        key: this.options.keyOf(rule),
        rule,
        held: noMeasures(),
        running: noMeasures(),
        spent: noMeasures(),
        start: -1,
        end: -1,
        clock: '',
        limits: '',
        inFlight: false,
        returning: false,
        granting: true,
        largest: noMeasures(),
        demand: noMeasures(),
        demandCount: 0,
        lastUse: now,
        renewedAt: 0,
      };
      this.leases.set(rule.id, lease);
    }
    return lease;
  }

  /** Whether `lease` can admit `demand` now. */
  private fits(lease: WindowLease, demand: Measures, now: number, clock: string): boolean {
    const { rule } = lease;
    if (lease.inFlight || lease.start < 0 || now >= lease.end || lease.clock !== clock) return false;
    if (lease.limits !== limitsKey(rule)) {
      // The allowance changed: the lease goes back at the next flush and is taken again under it.
      lease.returning = true;
      return false;
    }
    for (const measure of MEASURES) {
      if (checked(rule, measure, demand) && free(lease, measure) < demand[measure]) return false;
    }
    return true;
  }

  /** Holds `demand` on the leases of every counter, all or none; undefined: per request. */
  hold(rules: MergedRule[], demand: Measures): WindowLease[] | undefined {
    const now = Date.now();
    const clock = clockKey(this.options.clock());
    const leases: WindowLease[] = [];
    let fit = true;
    for (const rule of rules) {
      const lease = this.leaseOf(rule, now);
      lease.rule = rule;
      lease.lastUse = now;
      for (const measure of MEASURES) lease.largest[measure] = Math.max(lease.largest[measure], demand[measure]);
      if (fit && !this.fits(lease, demand, now, clock)) fit = false;
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
    if (!this.renewal) {
      this.renewal = this.flush().finally(() => {
        this.renewal = null;
      });
    }
    return this.renewal;
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
    let any = false;
    for (const rule of rules) {
      const lease = this.leases.get(rule.id);
      if (lease && MEASURES.some((measure) => free(lease, measure) > 0)) {
        lease.returning = true;
        lease.granting = false;
        any = true;
      }
    }
    if (any) await this.flush();
    return any;
  }

  /** Counts every lease's spend and renews it, in one script; one flush at a time. */
  async flush(everything = false): Promise<void> {
    while (this.running) await this.running;
    const round = this.flushOnce(everything);
    this.running = round.finally(() => {
      this.running = null;
    });
    await this.running;
  }

  private async flushOnce(everything: boolean): Promise<void> {
    if (this.unconfirmed) await this.send(this.unconfirmed);
    const round = this.nextRound(everything);
    if (round) await this.send(round);
  }

  /** The leases to count and renew now, and the call that does it (undefined: none). */
  private nextRound(everything: boolean): Round | undefined {
    const now = Date.now();
    const batch: Round['batch'] = [];
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const [id, lease] of this.leases) {
      const idle = now - lease.lastUse > IDLE_MS;
      const holdsNothing = isEmpty(lease.held) && isEmpty(lease.spent);
      if (holdsNothing && (idle || everything)) {
        if (isEmpty(lease.running)) this.leases.delete(id);
        continue;
      }
      const giveBack = everything || lease.returning || idle;
      const wanted = !giveBack && (!isEmpty(lease.held) || lease.demandCount >= 2);
      const keep = noMeasures();
      const want = noMeasures();
      const minimum = noMeasures();
      for (const measure of MEASURES) {
        const running = Math.max(0, lease.running[measure]);
        keep[measure] = giveBack ? running : Math.max(running, lease.held[measure] - lease.spent[measure]);
        minimum[measure] = Math.max(1, MINIMUM_REQUESTS * lease.largest[measure]);
        if (!wanted || limitOf(lease.rule, measure) < 0) continue;
        const target = Math.max(minimum[measure], (lease.spent[measure] + lease.demand[measure]) * TARGET_INTERVALS);
        const left = free(lease, measure);
        if (left < target / 2) want[measure] = Math.ceil(Math.max(minimum[measure], target - left));
      }
      lease.demand = noMeasures();
      lease.demandCount = 0;
      // Nothing to count or ask for: sent only to give back what it holds, or to keep its record alive.
      const stale = now - lease.renewedAt > RECORD_RENEWAL_MS;
      if (isEmpty(want) && isEmpty(lease.spent) && (isEmpty(lease.held) || (!giveBack && !stale))) continue;
      const spent = { ...lease.spent };
      batch.push({ lease, spent, limits: limitsKey(lease.rule) });
      keys.push(lease.key);
      args.push(...this.options.describe(lease.rule, now), lease.id, lease.start, spent.quota, spent.requests);
      args.push(spent.tokens, keep.quota, keep.requests, keep.tokens);
      for (const measure of MEASURES) args.push(Math.min(keep[measure], Math.max(0, lease.running[measure])));
      args.push(want.quota, want.requests, want.tokens, minimum.quota, minimum.requests, minimum.tokens, ROOM_DIVISOR);
      lease.inFlight = true;
    }
    if (batch.length === 0) return undefined;
    const { recordsKey, node } = this.options;
    const mark = `${recordsKey.replace(/bres$/, 'bflush')}:${node}`;
    const command = [
      2 + keys.length,
      recordsKey,
      mark,
      ...keys,
      now,
      now + WINDOW_LEASE_TTL_MS,
      ++this.rounds,
      ...args,
    ];
    return { batch, command, clock: clockKey(this.options.clock()), now };
  }

  /** Sends a round and takes its answers; its leases stay in flight until a reply confirms it. */
  private async send(round: Round): Promise<void> {
    this.unconfirmed = round;
    const [count, ...rest] = round.command as [number, ...(string | number)[]];
    const answers = (await this.redis.eval(RENEW_WINDOWS, count, ...rest)) as (number | string)[][];
    this.unconfirmed = undefined;
    const { clock, now } = round;
    for (const [index, { lease, spent, limits }] of round.batch.entries()) {
      const answer = (answers[index] as (number | string)[]).map(Number);
      lease.inFlight = false;
      lease.returning = false;
      lease.renewedAt = now;
      if (answer[0] !== 1) {
        // The counter is gone from Redis, and the lease with it; its stored use is loaded again
        // (the spend reaches the database through the journaled pending use all the same).
        lease.held = noMeasures();
        lease.spent = noMeasures();
        lease.start = -1;
        this.options.load(lease.rule).catch((error: unknown) => this.options.onError?.(error));
        continue;
      }
      const [, start, end, quota, requests, tokens] = answer as number[];
      for (const measure of MEASURES) lease.spent[measure] -= spent[measure];
      const held = { quota: quota ?? 0, requests: requests ?? 0, tokens: tokens ?? 0 };
      lease.granting = MEASURES.some((measure) => held[measure] > lease.running[measure] + lease.spent[measure]);
      lease.held = held;
      lease.start = start ?? -1;
      lease.end = end ?? -1;
      lease.clock = clock;
      lease.limits = limits;
    }
  }
}
