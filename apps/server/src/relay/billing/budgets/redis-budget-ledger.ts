import type { Redis } from 'ioredis';
import { ROLLING_MS, type WindowPeriod, type WindowUse, windowAt } from '../../../domain/budget-windows.js';
import { randomString } from '../../../platform/crypto.js';
import type { Journal } from '../../../platform/journal/journal.js';
import {
  type BudgetHold,
  type BudgetLedger,
  budgetRefusal,
  type ClockSource,
  type CounterRule,
  type MergedRule,
  mergeRules,
} from './budget-ledger.js';
import { isZero, type Measure, type Measures } from './measures.js';
import { PendingUse } from './pending-use.js';
import * as scripts from './redis-budget-scripts.js';
import type { BudgetUsageStore, WindowDelta } from './usage-store.js';

const MEASURE_OF: Record<string, Measure> = { q: 'quota', r: 'requests', t: 'tokens' };
const MAX_LOAD_ATTEMPTS = 5;

/** A hold as this ledger keeps it: the rules too, to describe the counters to the settling script. */
interface RedisHold extends BudgetHold {
  rules: MergedRule[];
}

/**
 * Budget windows shared by every node through Redis (redis-budget-scripts.ts): a hold is one
 * script over all its windows, so nodes cannot together pass one. Redis holds the live counts; each
 * node writes what it settled to the database in batches (usage-store.ts), which is read only when
 * Redis has no copy of a window (first use, or Redis lost its data). Holds of a node that died are
 * given back after `holdTtlMs`.
 */
export class RedisBudgetLedger implements BudgetLedger {
  private readonly prefix: string;
  private readonly node = randomString(8);
  private counter = 0;
  private readonly pending: PendingUse;
  private readonly timer: NodeJS.Timeout;

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

  async hold(rules: CounterRule[], demand: Measures): Promise<BudgetHold> {
    const merged = mergeRules(rules);
    const id = `${this.node}-${(this.counter++).toString(36)}`;
    const expires = Date.now() + (this.options.holdTtlMs ?? 2 * 3_600_000);
    for (let attempt = 0; ; attempt++) {
      const now = Date.now();
      const args = [now, id, expires, demand.quota, demand.requests, demand.tokens];
      for (const rule of merged) args.push(...this.describe(rule, now));
      const keys = [...merged.map((rule) => this.keyOf(rule)), `${this.prefix}bres`];
      const result = (await this.redis.eval(scripts.HOLD, keys.length, ...keys, ...args)) as (number | string)[];
      const [outcome, index] = result.map((value) => value);
      if (outcome === 1) {
        const hold: RedisHold = {
          counters: merged.map((rule) => rule.id),
          quotaLimits: merged.map((rule) => rule.limit.quota ?? null),
          held: { ...demand },
          settled: false,
          id,
          rules: merged,
        };
        return hold;
      }
      const rule = merged[Number(index) - 1] as MergedRule;
      if (outcome === 0) {
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
    const { rules } = hold as RedisHold;
    const now = Date.now();
    const amounts = used ?? { quota: -1, requests: 0, tokens: 0 };
    const args = [now, hold.id ?? '', amounts.quota, amounts.requests, amounts.tokens];
    args.push(hold.held.quota, hold.held.requests, hold.held.tokens);
    for (const rule of rules) args.push(...this.describe(rule, now));
    const keys = [...rules.map((rule) => this.keyOf(rule)), `${this.prefix}bres`];
    const result = (await this.redis.eval(scripts.SETTLE, keys.length, ...keys, ...args)) as number[];
    if (!used) return 0;
    const counted = { ...used, quota: Number(result[0]) };
    hold.counted = rules.map((rule, index) => ({
      subject: rule.subject,
      period: rule.period,
      start: Number(result[index + 1]),
      ...counted,
    }));
    // One record for the journal: the settlement's use of every window.
    this.pending.add(...hold.counted);
    return counted.quota;
  }

  async uncount(counted: WindowDelta[]): Promise<void> {
    const deltas = counted.filter((delta) => !isZero(delta));
    if (deltas.length === 0) return;
    const keys = deltas.map((delta) => this.keyOf({ subject: delta.subject, period: delta.period as WindowPeriod }));
    // Its own id: taken back once even when the client sends the script again after a reconnect.
    keys.push(`${this.prefix}buncounted:${this.node}-${randomString(8)}`);
    const args = deltas.flatMap((delta) => [delta.start, delta.quota, delta.requests, delta.tokens]);
    await this.redis.eval(scripts.UNCOUNT, keys.length, ...keys, ...args);
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

  flush(): Promise<void> {
    return this.pending.flush();
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
    await this.flush();
  }
}
