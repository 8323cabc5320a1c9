import { ownCopy } from '../../../platform/own-copy.js';
import type { KeyRef, QuotaLedger, Reservation, SettledUse, SettleResult, WaitFor } from '../ledger.js';
import { BudgetExceeded, type BudgetHold, type BudgetLedger } from './budget-ledger.js';
import type { Measures } from './measures.js';

/**
 * The balance's ledger with budget windows and plans in front (issue 33). A request whose key names
 * budget rules holds its demand on them first (a refusal costs the balance nothing), then its
 * quota. A request its owner's plan pays for holds on the plan's windows too and nothing on the
 * balance; when the plan's allowance is used up it falls back to the balance if the plan allows.
 * A settlement counts on the windows at most what they have room for, and charges the balance that
 * (a plan-paid one: nothing). A request with no rules and no plan goes straight to the balance's
 * ledger, at no cost.
 */
export class BudgetedLedger implements QuotaLedger {
  constructor(
    private readonly base: QuotaLedger,
    private readonly budgets: BudgetLedger,
  ) {
    if (base.knownBalance) this.knownBalance = (userId) => base.knownBalance?.(userId);
  }

  knownBalance?: (userId: number) => number | undefined;

  reserve(userId: number, key: KeyRef | null, amount: number, waitFor?: WaitFor): Reservation | Promise<Reservation> {
    const rules = key?.budgets?.rules ?? [];
    if (key?.plan) return this.reserveOnPlan(userId, key, amount, waitFor);
    if (rules.length === 0) return this.base.reserve(userId, key, amount, waitFor);
    const holding = this.budgets.hold(rules, this.demand(key, amount));
    if (holding instanceof Promise) return holding.then((hold) => this.reserveHeld(hold, userId, key, amount, waitFor));
    return this.reserveHeld(holding, userId, key, amount, waitFor);
  }

  private demand(key: KeyRef | null, amount: number): Measures {
    return { quota: amount, requests: 1, tokens: key?.budgets?.tokens ?? 0 };
  }

  /** The plan's allowance first; once it is used up, the balance if the plan falls back to it. */
  private async reserveOnPlan(userId: number, key: KeyRef, amount: number, waitFor?: WaitFor): Promise<Reservation> {
    const plan = key.plan as NonNullable<KeyRef['plan']>;
    const rules = key.budgets?.rules ?? [];
    let hold: BudgetHold | undefined;
    try {
      hold = await this.budgets.hold([...rules, ...plan.rules], this.demand(key, amount));
    } catch (error) {
      if (!(error instanceof BudgetExceeded && error.scope === 'plan' && plan.fallbackToBalance)) throw error;
    }
    let reservation: Reservation;
    if (hold) {
      // Nothing is held on the balance; the reservation still counts the request and its channel.
      reservation = await this.reserveHeld(hold, userId, key, 0, undefined);
      reservation.planPaid = true;
    } else {
      const balanceHold = rules.length > 0 ? await this.budgets.hold(rules, this.demand(key, amount)) : undefined;
      reservation = await (balanceHold
        ? this.reserveHeld(balanceHold, userId, key, amount, waitFor)
        : this.base.reserve(userId, key, amount, waitFor));
    }
    reservation.onPlan = true;
    return reservation;
  }

  /** The balance's reservation, carrying the budget hold; a refused one gives the hold back. */
  private reserveHeld(
    hold: BudgetHold,
    userId: number,
    key: KeyRef | null,
    amount: number,
    waitFor: WaitFor | undefined,
  ): Reservation | Promise<Reservation> {
    const attach = (reservation: Reservation) => {
      reservation.budget = hold;
      return reservation;
    };
    const release = (error: unknown): never => {
      void Promise.resolve(this.budgets.settle(hold, null));
      throw error;
    };
    let reserving: Reservation | Promise<Reservation>;
    try {
      reserving = this.base.reserve(userId, key, amount, waitFor);
    } catch (error) {
      return release(error);
    }
    return reserving instanceof Promise ? reserving.then(attach, release) : attach(reserving);
  }

  async settle(reservation: Reservation, cost: number, channelId?: number, use?: SettledUse): Promise<SettleResult> {
    const result = await this.settleHeld(reservation, cost, channelId, use);
    if (!reservation.onPlan) return result;
    // Copies as the spreads `{ ...result, more }` gave, with maps V8 shares (platform/own-copy.ts).
    const paid = ownCopy(result);
    paid.paidBy = reservation.planPaid ? 'plan' : 'balance';
    return paid;
  }

  private async settleHeld(
    reservation: Reservation,
    cost: number,
    channelId: number | undefined,
    use: SettledUse | undefined,
  ): Promise<SettleResult> {
    const hold = reservation.budget;
    if (!hold || reservation.settled || hold.settled) return this.base.settle(reservation, cost, channelId, use);
    const used = use === undefined && cost <= 0 ? null : { quota: cost, requests: 1, tokens: use?.tokens ?? 0 };
    const counted = await this.budgets.settle(hold, used);
    if (reservation.planPaid) {
      const result = await this.base.settle(reservation, 0, channelId, use);
      const planned = ownCopy(result);
      planned.charged = 0;
      planned.shortfall = used ? cost - counted : 0;
      planned.planPaid = used ? counted : 0;
      return withWindows(planned, hold);
    }
    const result = await this.base.settle(reservation, used ? Math.min(cost, counted) : 0, channelId, use);
    // The balance may charge less than the windows counted (it ran short): they count what was charged.
    if (used && result.charged < counted) await this.uncountQuota(hold, counted - result.charged);
    const charged = ownCopy(result);
    charged.shortfall = cost - result.charged;
    return withWindows(charged, hold);
  }

  private async uncountQuota(hold: BudgetHold, quota: number): Promise<void> {
    const counted = hold.counted ?? [];
    await this.budgets.uncount(counted.map((delta) => ({ ...delta, quota, requests: 0, tokens: 0 })));
    for (const delta of counted) delta.quota -= quota;
  }

  invalidateUser(userId: number, delta?: number): void {
    this.base.invalidateUser(userId, delta);
  }

  invalidateToken(tokenId: number): void {
    this.base.invalidateToken(tokenId);
  }

  async flush(): Promise<void> {
    await Promise.all([this.base.flush(), this.budgets.flush()]);
  }

  async close(): Promise<void> {
    await Promise.all([this.base.close(), this.budgets.close()]);
  }
}

/** The result with what the budget windows counted, when they counted anything. */
function withWindows(result: SettleResult, hold: BudgetHold): SettleResult {
  if (hold.counted) result.windows = hold.counted;
  return result;
}
