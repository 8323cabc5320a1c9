import type { BudgetScope } from '@one-hub/contracts';
import type { WindowClock, WindowPeriod, WindowUse } from '../../../domain/budget-windows.js';
import { AppError } from '../../../platform/errors.js';
import type { Measure, Measures } from './measures.js';
import type { WindowDelta } from './usage-store.js';

/**
 * Budgets per window (issue 33) ride the balance's reserve/settle path: before the upstream call a
 * request holds its demand (its reserved quota, one request, its estimated tokens) on every window
 * that applies to it, all or none, synchronously or in one Redis script, so concurrent requests on
 * one node or many cannot together pass a window; after it, the hold is replaced by the real use.
 */

/** One window a request must fit: whose, which period, and its allowance per measure. */
export interface CounterRule {
  /** `key:<id>`, `user:<id>` (the user's and its group's windows), `sub:<id>` (a plan). */
  subject: string;
  period: WindowPeriod;
  /** Undefined: the measure is not limited by this rule. */
  limit: Partial<Measures>;
  /** Whose allowance this is, for the refusal's message. */
  scope: BudgetScope;
}

export interface BudgetHold {
  /** The counters held, as `subject|period`. */
  counters: string[];
  /** Each counter's quota allowance (null: none), which caps the quota a settlement counts. */
  quotaLimits: (number | null)[];
  held: Measures;
  settled: boolean;
  /** Set by ledgers that track holds outside the process. */
  id?: string;
  /** What `settle` counted on each window, with the window's start: what `uncount` can take back. */
  counted?: WindowDelta[];
}

export interface BudgetLedger {
  /** Holds `demand` on every rule's window, or throws 429 budget_exceeded naming the window. */
  hold(rules: CounterRule[], demand: Measures): BudgetHold | Promise<BudgetHold>;
  /**
   * Replaces the hold by `used` (null: gives it all back, nothing counted). The quota counted is at
   * most what the windows have room for, so none is overdrawn by an answer that outgrew its hold;
   * returns the quota counted.
   */
  settle(hold: BudgetHold, used: Measures | null): number | Promise<number>;
  /**
   * Takes back use that `settle` counted (the balance did not charge it after all, or the task it
   * paid for failed), from each window only while it is still the window that counted it.
   */
  uncount(counted: WindowDelta[]): void | Promise<void>;
  /** The current use of a subject's window (read-only, for the console). */
  use(subject: string, period: WindowPeriod): Promise<WindowUse | undefined>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The rules of one counter merged: the smallest allowance of each measure and whose it is. */
export interface MergedRule {
  id: string;
  subject: string;
  period: WindowPeriod;
  limit: Partial<Measures>;
  scopes: Partial<Record<Measure, BudgetScope>>;
}

export const counterId = (subject: string, period: WindowPeriod): string => `${subject}|${period}`;

/** A user's window and its group's for the same period are one counter (the user's use) with the smaller allowance. */
export function mergeRules(rules: CounterRule[]): MergedRule[] {
  const merged = new Map<string, MergedRule>();
  for (const rule of rules) {
    const id = counterId(rule.subject, rule.period);
    let entry = merged.get(id);
    if (!entry) {
      entry = { id, subject: rule.subject, period: rule.period, limit: {}, scopes: {} };
      merged.set(id, entry);
    }
    for (const measure of ['quota', 'requests', 'tokens'] as const) {
      const limit = rule.limit[measure];
      if (limit === undefined) continue;
      const current = entry.limit[measure];
      if (current === undefined || limit < current) {
        entry.limit[measure] = limit;
        entry.scopes[measure] = rule.scope;
      }
    }
  }
  return [...merged.values()];
}

/** What does not fit, as the ledgers find it. */
export interface Overrun {
  rule: MergedRule;
  measure: Measure;
  /** When the window ends, ms since the epoch. */
  end: number;
}

const WHOSE: Record<BudgetScope, string> = {
  key: 'this API key',
  user: 'your account',
  group: "your user group's",
  plan: 'your plan',
};

const PERIOD_NAMES: Record<WindowPeriod, string> = {
  minute: 'per-minute',
  '5h': '5-hour',
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
};

/** 429 `budget_exceeded`, naming the window and when it resets, with Retry-After; `scope` says whose window. */
export class BudgetExceeded extends AppError {
  readonly scope: BudgetScope;

  constructor({ rule, measure, end }: Overrun, now = Date.now()) {
    const scope = rule.scopes[measure] ?? 'user';
    const limit = rule.limit[measure];
    const what =
      rule.period === 'minute'
        ? `the tokens-per-minute limit of ${WHOSE[scope]} (${limit} tokens)`
        : `the ${PERIOD_NAMES[rule.period]} ${measure === 'quota' ? 'spending' : measure} budget of ${WHOSE[scope]} (${limit}${measure === 'quota' ? ' quota' : ` ${measure}`})`;
    super('rate_limited', `${what} is used up; it resets at ${new Date(end).toISOString()}`, {
      details: { type: 'budget_exceeded', code: 'budget_exceeded' },
      retryAfterSeconds: Math.max(1, Math.ceil((end - now) / 1000)),
    });
    this.scope = scope;
  }
}

export function budgetRefusal(overrun: Overrun, now = Date.now()): BudgetExceeded {
  return new BudgetExceeded(overrun, now);
}

/** The clock of budget windows as the settings say now. */
export type ClockSource = () => WindowClock;
