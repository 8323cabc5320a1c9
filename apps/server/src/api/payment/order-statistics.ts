import type { AnalyticsPeriod, AnalyticsSummary } from '@one-hub/contracts';
import { centsOf, centsToNumber } from '../../payments/money.js';
import { localDateOf } from '../statistics/dates.js';
import type { PaymentRepository } from './repo.js';

/**
 * Successful orders for the analytics page (reference §1.16): totals per currency, and money
 * received per local day. As in the reference the daily figure adds amounts of every currency.
 * Sums are taken in cents so the two-decimal figures stay exact.
 */
export class OrderStatistics {
  constructor(private readonly repo: PaymentRepository) {}

  /** `hidden`: users whose orders are left out (an admin's view: root and the other admins). */
  async totals(hidden: readonly number[] = []): Promise<AnalyticsSummary['order_statistics']> {
    const rows = await this.repo.successTotals(hidden);
    return rows.map((row) => ({
      quota: row.quota,
      money: centsToNumber(centsOf(row.money)),
      order_currency: row.order_currency,
    }));
  }

  async perDay(
    start: number,
    end: number,
    hidden: readonly number[] = [],
  ): Promise<AnalyticsPeriod['order_statistics']> {
    const days = new Map<string, number>();
    for (const order of await this.repo.successfulOrdersBetween(start, end, hidden)) {
      const date = localDateOf(Number(order.created_at));
      days.set(date, (days.get(date) ?? 0) + centsOf(order.order_amount));
    }
    return [...days.entries()]
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
      .map(([date, cents]) => ({ date, order_amount: centsToNumber(cents) }));
  }
}
