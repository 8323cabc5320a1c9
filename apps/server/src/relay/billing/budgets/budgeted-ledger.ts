import type { KeyRef, QuotaLedger, Reservation, SettledUse, SettleResult, WaitFor } from '../ledger.js';
import type { BudgetHold, BudgetLedger } from './budget-ledger.js';

/**
 * The balance's ledger with budget windows in front (issue 33): a request whose key names budget
 * rules holds its demand on them first (a refusal costs the balance nothing), then its quota; its
 * settlement counts on the windows at most what they have room for, and charges the balance that.
 * A request with no rules goes straight to the balance's ledger, at no cost.
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
    const request = key?.budgets;
    if (!request || request.rules.length === 0) return this.base.reserve(userId, key, amount, waitFor);
    const holding = this.budgets.hold(request.rules, { quota: amount, requests: 1, tokens: request.tokens });
    if (holding instanceof Promise) return holding.then((hold) => this.reserveHeld(hold, userId, key, amount, waitFor));
    return this.reserveHeld(holding, userId, key, amount, waitFor);
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
    const hold = reservation.budget;
    if (!hold || reservation.settled || hold.settled) return this.base.settle(reservation, cost, channelId, use);
    const used = use === undefined && cost <= 0 ? null : { quota: cost, requests: 1, tokens: use?.tokens ?? 0 };
    const counted = await this.budgets.settle(hold, used);
    const result = await this.base.settle(reservation, used ? Math.min(cost, counted) : 0, channelId, use);
    // The balance may charge less than the windows counted (it ran short): they count what was charged.
    if (used && result.charged < counted) await this.budgets.uncount(hold, counted - result.charged);
    return { ...result, shortfall: cost - result.charged };
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
