import { type WindowPeriod, type WindowUse, windowAt, windowHolds } from '../../../domain/budget-windows.js';
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
  type Overrun,
} from './budget-ledger.js';
import { addMeasures, MEASURES, type Measures, noMeasures } from './measures.js';
import { PendingUse } from './pending-use.js';
import type { BudgetUsageStore, WindowDelta } from './usage-store.js';

/** One subject's window on this node. */
interface Counter {
  subject: string;
  period: WindowPeriod;
  /** The open window, or none yet (a rolling window opens with the next request). */
  start?: number;
  end?: number;
  /** Settled in the open window (stored or not). */
  used: Measures;
  /** Held by requests still running. */
  held: Measures;
}

/**
 * One node: windows in process memory, checked and held synchronously, so concurrent requests
 * cannot together pass one; a subject's stored use is read once, when first met. Settled use goes
 * to the database in batches (usage-store.ts). Per-minute windows (TPM) are not stored.
 */
export class MemoryBudgetLedger implements BudgetLedger {
  private readonly counters = new Map<string, Counter>();
  private readonly loading = new Map<string, Promise<Counter>>();
  private readonly pending: PendingUse;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: BudgetUsageStore,
    private readonly clock: ClockSource,
    options: { flushIntervalMs?: number; onFlushError?: (error: unknown) => void; journal?: Journal } = {},
  ) {
    this.pending = new PendingUse(store, options.journal, options.onFlushError);
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  hold(rules: CounterRule[], demand: Measures): BudgetHold | Promise<BudgetHold> {
    const merged = mergeRules(rules);
    const missing = merged.filter((rule) => !this.counters.has(rule.id));
    if (missing.length === 0) return this.holdLoaded(merged, demand);
    return Promise.all(missing.map((rule) => this.load(rule.subject, rule.period))).then(() =>
      this.holdLoaded(merged, demand),
    );
  }

  /** Checks every window, then holds on all of them, with no await in between. */
  private holdLoaded(rules: MergedRule[], demand: Measures): BudgetHold {
    const now = Date.now();
    const counters = rules.map((rule) => this.current(rule.id, now, true));
    rules.forEach((rule, index) => {
      const overrun = overrunOf(rule, counters[index] as Counter, demand, now, this.clock);
      if (overrun) throw budgetRefusal(overrun, now);
    });
    for (const counter of counters) addMeasures(counter.held, demand);
    return {
      counters: rules.map((rule) => rule.id),
      quotaLimits: rules.map((rule) => rule.limit.quota ?? null),
      held: { ...demand },
      settled: false,
    };
  }

  settle(hold: BudgetHold, used: Measures | null): number {
    if (hold.settled) return 0;
    hold.settled = true;
    const now = Date.now();
    const counters = hold.counters.map((id) => this.current(id, now, true));
    for (const counter of counters) addMeasures(counter.held, hold.held, -1);
    if (!used) return 0;
    // What no other running request holds: the most an answer that outgrew its hold may count.
    const rooms = counters.map((counter, index) => {
      const limit = hold.quotaLimits[index];
      return limit === null || limit === undefined ? used.quota : limit - counter.used.quota - counter.held.quota;
    });
    const quota = Math.min(used.quota, ...rooms);
    const counted = { ...used, quota: Math.max(0, quota) };
    hold.counted = this.countAll(counters, counted, now);
    return counted.quota;
  }

  uncount(counted: WindowDelta[]): void | Promise<void> {
    const idOf = (delta: WindowDelta) => counterId(delta.subject, delta.period as WindowPeriod);
    // A refund may run where the window was never met yet (after a restart): it is read first.
    const missing = counted.filter((delta) => !this.counters.has(idOf(delta)));
    const uncountLoaded = () => {
      const now = Date.now();
      const givenBack: WindowDelta[] = [];
      for (const delta of counted) {
        const counter = this.current(idOf(delta), now, false);
        // Only the window that counted it: a newer one never did.
        if (counter.start !== delta.start) continue;
        const back = { quota: -delta.quota, requests: -delta.requests, tokens: -delta.tokens };
        addMeasures(counter.used, back);
        givenBack.push({ ...delta, ...back });
      }
      this.pending.add(...givenBack);
    };
    if (missing.length === 0) return uncountLoaded();
    return Promise.all(missing.map((delta) => this.load(delta.subject, delta.period as WindowPeriod))).then(
      uncountLoaded,
    );
  }

  async use(subject: string, period: WindowPeriod): Promise<WindowUse | undefined> {
    await this.load(subject, period);
    const counter = this.current(counterId(subject, period), Date.now(), false);
    if (counter.start === undefined) return undefined;
    return { start: counter.start, ...counter.used };
  }

  flush(): Promise<void> {
    return this.pending.flush();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /**
   * Adds settled use to each counter's open window (opening one if none is) and, as one record, to
   * the next batch; answers what each window counted.
   */
  private countAll(counters: Counter[], used: Measures, now: number): WindowDelta[] {
    const deltas: WindowDelta[] = [];
    for (const counter of counters) {
      if (counter.start === undefined) this.open(counter, now);
      addMeasures(counter.used, used);
      deltas.push({ subject: counter.subject, period: counter.period, start: counter.start as number, ...used });
    }
    this.pending.add(...deltas);
    return deltas;
  }

  /**
   * The counter with its window brought up to `now`: a window that ended is closed and its use
   * dropped; with `open`, a new one opens (a calendar window is always open).
   */
  private current(id: string, now: number, open: boolean): Counter {
    const counter = this.counters.get(id) as Counter;
    const clock = this.clock();
    if (counter.start !== undefined && !windowHolds(counter.period, clock, counter.start, now)) {
      counter.start = undefined;
      counter.end = undefined;
      counter.used = noMeasures();
    }
    if (counter.start === undefined && (open || clock.mode === 'calendar')) this.open(counter, now);
    return counter;
  }

  private open(counter: Counter, now: number): void {
    const window = windowAt(counter.period, this.clock(), now);
    counter.start = window.start;
    counter.end = window.end;
    counter.used = noMeasures();
  }

  private load(subject: string, period: WindowPeriod): Promise<Counter> {
    const id = counterId(subject, period);
    const loaded = this.counters.get(id);
    if (loaded) return Promise.resolve(loaded);
    let loading = this.loading.get(id);
    if (!loading) {
      loading = this.read(subject, period).finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  private async read(subject: string, period: WindowPeriod): Promise<Counter> {
    const stored = period === 'minute' ? undefined : await this.store.read(subject, period);
    const counter: Counter = { subject, period, used: noMeasures(), held: noMeasures() };
    if (stored && windowHolds(period, this.clock(), stored.start, Date.now())) {
      counter.start = stored.start;
      counter.end = windowAt(period, this.clock(), Date.now(), stored.start).end;
      counter.used = { quota: stored.quota, requests: stored.requests, tokens: stored.tokens };
    }
    // What this node settled before (a counter read again) is in `pending` and in the stored row alike.
    this.counters.set(counterId(subject, period), counter);
    return counter;
  }
}

/** The first measure of a window that `demand` would overrun, if any. */
function overrunOf(
  rule: MergedRule,
  counter: Counter,
  demand: Measures,
  now: number,
  clock: ClockSource,
): Overrun | undefined {
  for (const measure of MEASURES) {
    const limit = rule.limit[measure];
    if (limit === undefined) continue;
    // A request that costs nothing of a measure (a free model's quota) passes that measure.
    if (measure !== 'requests' && demand[measure] <= 0) continue;
    if (counter.used[measure] + counter.held[measure] + demand[measure] > limit) {
      const end = counter.end ?? windowAt(rule.period, clock(), now).end;
      return { rule, measure, end };
    }
  }
  return undefined;
}
