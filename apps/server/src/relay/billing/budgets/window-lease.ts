import type { WindowClock } from '../../../domain/budget-windows.js';
import type { MergedRule } from './budget-ledger.js';
import { MEASURES, type Measure, type Measures, noMeasures } from './measures.js';

/**
 * One budget window lease as its node keeps it, and the rules that size it, admit on it and renew it
 * (redis-window-leases.ts runs them; redis-window-lease-scripts.ts is Redis's half).
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
  /** The clock the window was computed with (none yet): a changed setting ends the lease's use. */
  clock: WindowClock | undefined;
  /** The allowances the lease was granted under, per measure (-1: none). */
  limits: Measures;
  inFlight: boolean;
  returning: boolean;
  granting: boolean;
  largest: Measures;
  demand: Measures;
  demandCount: number;
  lastUse: number;
  renewedAt: number;
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

export const limitOf = (rule: MergedRule, measure: Measure): number => rule.limit[measure] ?? -1;
/** The rule's allowances per measure (-1: none), as a renewal is granted under them. */
export const limitsOf = (rule: MergedRule): Measures => ({
  quota: limitOf(rule, 'quota'),
  requests: limitOf(rule, 'requests'),
  tokens: limitOf(rule, 'tokens'),
});
/** Compared field by field: the admission path builds no key to compare. */
const sameLimits = (rule: MergedRule, limits: Measures): boolean =>
  limitOf(rule, 'quota') === limits.quota &&
  limitOf(rule, 'requests') === limits.requests &&
  limitOf(rule, 'tokens') === limits.tokens;
const sameClock = (clock: WindowClock, other: WindowClock | undefined): boolean =>
  other !== undefined && clock.mode === other.mode && clock.timeZone === other.timeZone;
export const free = (lease: WindowLease, measure: Measure): number =>
  lease.held[measure] - lease.running[measure] - lease.spent[measure];
export const isEmpty = (measures: Measures): boolean =>
  measures.quota === 0 && measures.requests === 0 && measures.tokens === 0;

/** A measure a demand must find room for: a limited one the request uses (every request counts one). */
const checked = (rule: MergedRule, measure: Measure, demand: Measures): boolean =>
  limitOf(rule, measure) >= 0 && (measure === 'requests' || demand[measure] > 0);

export function newWindowLease(id: string, key: string, rule: MergedRule, now: number): WindowLease {
  return {
    id,
    key,
    rule,
    held: noMeasures(),
    running: noMeasures(),
    spent: noMeasures(),
    start: -1,
    end: -1,
    clock: undefined,
    limits: noMeasures(),
    inFlight: false,
    returning: false,
    granting: true,
    largest: noMeasures(),
    demand: noMeasures(),
    demandCount: 0,
    lastUse: now,
    renewedAt: 0,
  };
}

/** Whether `lease` can admit `demand` now. */
export function fits(lease: WindowLease, demand: Measures, now: number, clock: WindowClock): boolean {
  const { rule } = lease;
  if (lease.inFlight || lease.start < 0 || now >= lease.end || !sameClock(clock, lease.clock)) return false;
  if (!sameLimits(rule, lease.limits)) {
    // The allowance changed: the lease goes back at the next flush and is taken again under it.
    lease.returning = true;
    return false;
  }
  for (const measure of MEASURES) {
    if (checked(rule, measure, demand) && free(lease, measure) < demand[measure]) return false;
  }
  return true;
}

/**
 * What a renewal round sends for `lease` (RENEW_WINDOWS's 18 lease arguments, after the counter's 8)
 * and the spend it carries; undefined when it has nothing to count, ask for or give back, and its
 * record needs no renewal yet. The demand seen since the last round is taken into the ask.
 */
export function renewalOf(
  lease: WindowLease,
  now: number,
  everything: boolean,
): { spent: Measures; args: (string | number)[] } | undefined {
  const idle = now - lease.lastUse > IDLE_MS;
  const giveBack = everything || lease.returning || idle;
  const wanted = !giveBack && (!isEmpty(lease.held) || lease.demandCount >= 2);
  const keep = noMeasures();
  const must = noMeasures();
  const want = noMeasures();
  const minimum = noMeasures();
  for (const measure of MEASURES) {
    const running = Math.max(0, lease.running[measure]);
    keep[measure] = giveBack ? running : Math.max(running, lease.held[measure] - lease.spent[measure]);
    must[measure] = Math.min(keep[measure], running);
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
  if (isEmpty(want) && isEmpty(lease.spent) && (isEmpty(lease.held) || (!giveBack && !stale))) return undefined;
  const spent = { ...lease.spent };
  const args: (string | number)[] = [lease.id, lease.start];
  for (const part of [spent, keep, must, want, minimum]) args.push(part.quota, part.requests, part.tokens);
  args.push(ROOM_DIVISOR);
  return { spent, args };
}

/** Whether a lease holds nothing and asks for nothing: then, idle, it is forgotten. */
export const holdsNothing = (lease: WindowLease, now: number, everything: boolean): boolean =>
  isEmpty(lease.held) && isEmpty(lease.spent) && (everything || now - lease.lastUse > IDLE_MS);

/**
 * Takes a renewal's answer for `lease`, which carried `spent`: `{1, start, end, q, r, t}`, or
 * `{-1}` when the counter is gone from Redis with the lease (→ false: the counter must be loaded).
 */
export function takeRenewal(
  lease: WindowLease,
  answer: number[],
  round: { spent: Measures; limits: Measures; clock: WindowClock; now: number },
): boolean {
  lease.inFlight = false;
  lease.returning = false;
  lease.renewedAt = round.now;
  if (answer[0] !== 1) {
    // Its spend reaches the database through the journaled pending use all the same.
    lease.held = noMeasures();
    lease.spent = noMeasures();
    lease.start = -1;
    return false;
  }
  const [, start, end, quota, requests, tokens] = answer;
  for (const measure of MEASURES) lease.spent[measure] -= round.spent[measure];
  const held = { quota: quota ?? 0, requests: requests ?? 0, tokens: tokens ?? 0 };
  lease.granting = MEASURES.some((measure) => held[measure] > lease.running[measure] + lease.spent[measure]);
  lease.held = held;
  lease.start = start ?? -1;
  lease.end = end ?? -1;
  lease.clock = round.clock;
  lease.limits = round.limits;
  return true;
}
