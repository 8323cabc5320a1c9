import type { Redis } from 'ioredis';
import { ROLLING_MS, type WindowPeriod, type WindowUse, windowAt } from '../../../domain/budget-windows.js';
import { sentUntilAnswered } from '../../../platform/cache/redis-resend.js';
import { randomString } from '../../../platform/crypto.js';
import type { Journal } from '../../../platform/journal/journal.js';
import {
  type BudgetHold,
  type BudgetLedger,
  budgetRefusal,
  type ClockSource,
  type CounterRule,
  counterId,
  type MergedRule,
  mergeRules,
} from './budget-ledger.js';
import { isZero, type Measure, type Measures } from './measures.js';
import { PendingUse } from './pending-use.js';
import * as scripts from './redis-budget-scripts.js';
import { WindowLeases } from './redis-window-leases.js';
import type { BudgetUsageStore, WindowDelta } from './usage-store.js';
import type { WindowLease } from './window-lease.js';

const MEASURE_OF: Record<string, Measure> = { q: 'quota', r: 'requests', t: 'tokens' };
const MAX_LOAD_ATTEMPTS = 5;

/** A hold as this ledger keeps it: the rules too, to describe the counters to the settling script. */
interface RedisHold extends BudgetHold {
  rules: MergedRule[];
  /** Held on this node's leases (redis-window-leases.ts), not in Redis per request. */
  leases?: WindowLease[];
}

const NOTHING: Measures = { quota: 0, requests: 0, tokens: 0 };

/**
 * Budget windows shared by every node through Redis (redis-budget-scripts.ts): a hold is one
 * script over all its windows, so nodes cannot together pass one. Redis holds the live counts; each
 * node writes what it settled to the database in batches (usage-store.ts), which is read only when
 * Redis has no copy of a window (first use, or Redis lost its data). Holds of a node that died are
 * given back after `holdTtlMs`. With `leaseFlushMs`, steady requests hold and settle on node-local
 * leases of their windows (redis-window-leases.ts), flushed to Redis in one script every interval.
 */
export class RedisBudgetLedger implements BudgetLedger {
  private readonly prefix: string;
  private readonly node = randomString(8);
  private counter = 0;
  private readonly pending: PendingUse;
  private readonly timer: NodeJS.Timeout;
  private readonly leases: WindowLeases | undefined;
  private readonly leaseTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly store: BudgetUsageStore,
    private readonly clock: ClockSource,
    private readonly options: {
      prefix?: string;
      flushIntervalMs?: number;
      holdTtlMs?: number;
      onError?: (error: unknown) => void;
      journal?: Journal;
      /** Take window leases, flushed this often (ms); without it every request holds in Redis. */
      leaseFlushMs?: number;
    } = {},
  ) {
    this.prefix = options.prefix ?? 'onehub:budget:';
    this.pending = new PendingUse(store, options.journal, options.onError);
    let sweeps = 0;
    this.timer = setInterval(() => {
      // Expired holds are looked for every 30 flushes; they only matter after a node died.
      const sweep = ++sweeps % 30 === 0 ? this.refundExpired() : Promise.resolve();
      Promise.all([this.flush(), sweep]).catch((error: unknown) => options.onError?.(error));
    }, options.flushIntervalMs ?? 1000);
    this.timer.unref();
    if (options.leaseFlushMs) {
      const leases = new WindowLeases(redis, {
        node: this.node,
        recordsKey: `${this.prefix}bres`,
        markKey: `${this.prefix}bflush:${this.node}`,
        keyOf: (rule) => this.keyOf(rule),
        describe: (rule, now) => this.describe(rule, now),
        clock,
        load: (rule) => this.load(rule),
        onError: options.onError,
      });
      this.leases = leases;
      this.leaseTimer = setInterval(() => {
        leases.flush().catch((error: unknown) => options.onError?.(error));
      }, options.leaseFlushMs);
      this.leaseTimer.unref();
    }
  }

  private keyOf(rule: { subject: string; period: WindowPeriod }): string {
    return `${this.prefix}b:${rule.subject}:${rule.period}`;
  }

  /** The 8 arguments that describe a counter to a script. */
  private describe(rule: MergedRule, now: number): (string | number)[] {
    const clock = this.clock();
    const calendar = clock.mode === 'calendar' || rule.period === 'minute';
    const window = calendar ? windowAt(rule.period, clock, now) : { start: 0, end: 0 };
    const limit = (measure: Measure) => rule.limit[measure] ?? -1;
    return [
      calendar ? 'c' : 'r',
      ROLLING_MS[rule.period],
      window.start,
      window.end,
      rule.period === 'minute' ? '0' : '1',
      limit('quota'),
      limit('requests'),
      limit('tokens'),
    ];
  }

  hold(rules: CounterRule[], demand: Measures): BudgetHold | Promise<BudgetHold> {
    const merged = mergeRules(rules);
    const leases = this.leases?.hold(merged, demand);
    if (leases) return this.holdOf(merged, demand, { leases });
    if (this.leases?.worthWaiting(merged)) return this.holdAfterRenewal(merged, demand);
    return this.holdInRedis(merged, demand);
  }

  /** A hold in Redis (`id`) or on this node's leases. */
  private holdOf(rules: MergedRule[], demand: Measures, where: { id: string } | { leases: WindowLease[] }): RedisHold {
    return {
      counters: rules.map((rule) => rule.id),
      quotaLimits: rules.map((rule) => rule.limit.quota ?? null),
      held: { ...demand },
      settled: false,
      rules,
      ...where,
    };
  }

  /** A lease is being renewed or ran low: one renewal, shared by the requests that wait, then the leases again. */
  private async holdAfterRenewal(rules: MergedRule[], demand: Measures): Promise<BudgetHold> {
    const leases = this.leases as WindowLeases;
    try {
      await leases.renewNow();
    } catch (error) {
      this.options.onError?.(error);
    }
    const held = leases.hold(rules, demand);
    return held ? this.holdOf(rules, demand, { leases: held }) : this.holdInRedis(rules, demand);
  }

  private async holdInRedis(merged: MergedRule[], demand: Measures): Promise<BudgetHold> {
    const id = `${this.node}-${(this.counter++).toString(36)}`;
    const expires = Date.now() + (this.options.holdTtlMs ?? 2 * 3_600_000);
    let gaveBack = false;
    for (let attempt = 0; ; attempt++) {
      const now = Date.now();
      const args = [now, id, expires, demand.quota, demand.requests, demand.tokens];
      for (const rule of merged) args.push(...this.describe(rule, now));
      const keys = [...merged.map((rule) => this.keyOf(rule)), `${this.prefix}bres`];
      const result = (await this.redis.eval(scripts.HOLD, keys.length, ...keys, ...args)) as (number | string)[];
      const [outcome, index] = result;
      if (outcome === 1) {
        return this.holdOf(merged, demand, { id });
      }
      const rule = merged[Number(index) - 1] as MergedRule;
      if (outcome === 0) {
        // This node's own leases count as held: their free parts go back, and the hold is tried once more.
        if (!gaveBack && this.leases && (await this.leases.giveBack(merged))) {
          gaveBack = true;
          continue;
        }
        throw budgetRefusal({ rule, measure: MEASURE_OF[String(result[2])] ?? 'quota', end: Number(result[3]) }, now);
      }
      if (attempt >= MAX_LOAD_ATTEMPTS) throw new Error(`budget window ${rule.id} could not be loaded into Redis`);
      await this.load(rule);
    }
  }

  /** Copies a window's stored use into Redis (unless another node did first). */
  private async load(rule: MergedRule): Promise<void> {
    const stored = await this.store.read(rule.subject, rule.period);
    const clock = this.clock();
    const now = Date.now();
    const open = stored ? windowAt(rule.period, clock, now, stored.start) : undefined;
    const current = stored && open && open.start === stored.start ? stored : undefined;
    await this.redis.eval(
      scripts.INIT,
      1,
      this.keyOf(rule),
      current?.start ?? -1,
      current && open ? open.end : -1,
      current?.quota ?? 0,
      current?.requests ?? 0,
      current?.tokens ?? 0,
    );
  }

  async settle(hold: BudgetHold, used: Measures | null): Promise<number> {
    if (hold.settled) return 0;
    hold.settled = true;
    const { rules, leases } = hold as RedisHold;
    if (!leases) {
      const [quota, starts] = await this.settleInRedis(rules, hold.id ?? '', used, hold.held);
      return used ? this.counted(hold, used, quota, starts) : 0;
    }
    const local = this.leases as WindowLeases;
    local.release(leases, hold.held);
    if (!used) return 0;
    const quota = local.count(leases, used);
    if (quota === undefined) {
      // A window ended while the request ran: counted in Redis, in the window open now.
      const [counted, starts] = await this.settleInRedis(rules, this.freshId(), used, NOTHING);
      return this.counted(hold, used, counted, starts);
    }
    const starts = leases.map((lease) => lease.start);
    if (quota >= used.quota) return this.counted(hold, used, quota, starts);
    // The answer outgrew the leases' free parts: the rest counts as far as the windows have room.
    const [extra] = await this.settleInRedis(rules, this.freshId(), { ...NOTHING, quota: used.quota - quota }, NOTHING);
    return this.counted(hold, used, quota + extra, starts);
  }

  private freshId(): string {
    return `${this.node}-${(this.counter++).toString(36)}`;
  }

  /**
   * SETTLE: the hold `id` (when Redis still records it) replaced by `used` (null: given back). An id
   * Redis does not record holds nothing there: the use is only counted. → the quota counted, the starts.
   */
  private async settleInRedis(
    rules: MergedRule[],
    id: string,
    used: Measures | null,
    held: Measures,
  ): Promise<[number, number[]]> {
    const now = Date.now();
    const amounts = used ?? { quota: -1, requests: 0, tokens: 0 };
    const args = [now, id, amounts.quota, amounts.requests, amounts.tokens];
    args.push(held.quota, held.requests, held.tokens);
    for (const rule of rules) args.push(...this.describe(rule, now));
    const keys = [...rules.map((rule) => this.keyOf(rule)), `${this.prefix}bres`];
    // Sent again as it was if its reply is lost: the script recognises its id and answers the same.
    const result = (await sentUntilAnswered(() =>
      this.redis.eval(scripts.SETTLE, keys.length, ...keys, ...args),
    )) as number[];
    return [Number(result[0]), result.slice(1).map(Number)];
  }

  /** Records what a settlement counted on each window, for `uncount` and the journal. */
  private counted(hold: BudgetHold, used: Measures, quota: number, starts: number[]): number {
    const { rules } = hold as RedisHold;
    hold.counted = rules.map((rule, index) => ({
      subject: rule.subject,
      period: rule.period,
      start: starts[index] ?? -1,
      ...used,
      quota,
    }));
    // One record for the journal: the settlement's use of every window.
    this.pending.add(...hold.counted);
    return quota;
  }

  async uncount(counted: WindowDelta[]): Promise<void> {
    const deltas = counted.filter((delta) => !isZero(delta));
    if (deltas.length === 0) return;
    // Use still on a lease, not flushed, is taken back there; the rest in Redis.
    const inRedis = deltas.filter(
      (delta) => !this.leases?.uncount(counterId(delta.subject, delta.period as WindowPeriod), delta.start, delta),
    );
    if (inRedis.length > 0) {
      const keys = inRedis.map((delta) => this.keyOf({ subject: delta.subject, period: delta.period as WindowPeriod }));
      // Its own id: taken back once even when the client sends the script again after a reconnect.
      keys.push(`${this.prefix}buncounted:${this.node}-${randomString(8)}`);
      const args = inRedis.flatMap((delta) => [delta.start, delta.quota, delta.requests, delta.tokens]);
      await this.redis.eval(scripts.UNCOUNT, keys.length, ...keys, ...args);
    }
    // The stored row drops a delta for a window it no longer holds, as Redis did.
    this.pending.add(
      ...deltas.map((delta) => ({ ...delta, quota: -delta.quota, requests: -delta.requests, tokens: -delta.tokens })),
    );
  }

  async use(subject: string, period: WindowPeriod): Promise<WindowUse | undefined> {
    const values = await this.redis.hmget(this.keyOf({ subject, period }), 's', 'q', 'r', 't');
    if (values[0] === null) return this.store.read(subject, period);
    const start = Number(values[0]);
    if (start < 0) return undefined;
    return { start, quota: Number(values[1]), requests: Number(values[2]), tokens: Number(values[3]) };
  }

  async flush(): Promise<void> {
    await this.leases?.flush();
    await this.pending.flush();
  }

  private async refundExpired(): Promise<void> {
    // Settlements' answers are kept for resent commands (redis-budget-scripts.ts): begun anew at most every DONE_KEEP_MS.
    if ((await this.redis.set(`${this.prefix}bdone-begun`, '1', 'PX', scripts.DONE_KEEP_MS, 'NX')) === 'OK') {
      await this.redis.eval(scripts.ROTATE_DONE, 2, `${this.prefix}bdone`, `${this.prefix}bdone:old`);
    }
    const records = await this.redis.hgetall(`${this.prefix}bres`);
    const now = Date.now();
    for (const [id, record] of Object.entries(records)) {
      if (Number(record.split('|')[0]) <= now) {
        await this.redis.eval(scripts.REFUND_EXPIRED, 1, `${this.prefix}bres`, id, now);
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.leaseTimer);
    // The leases go back: what they hold free is the other nodes' again.
    await this.leases?.flush(true);
    await this.flush();
  }
}
