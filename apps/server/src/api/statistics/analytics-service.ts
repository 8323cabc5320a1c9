import type {
  AnalyticsPeriod,
  AnalyticsPeriodQuery,
  AnalyticsSummary,
  MultiUserStatsQuery,
  PeriodUsageRow,
  TopUsers,
  TopUsersQuery,
} from '@one-hub/contracts';
import type { AnalyticsRepository } from './analytics-repo.js';
import { localDateOf } from './dates.js';
import { toPeriodUsageRow } from './presenter.js';
import type { DatedUsage, StatisticsRepository, UsageTotals } from './repo.js';
import { type MultiUserStats, multiUserCsv, UserUsageReport } from './user-usage.js';

/** Successful orders (api/payment/order-statistics.ts); absent, the order lists stay empty. */
export interface OrderFigures {
  totals(): Promise<AnalyticsSummary['order_statistics']>;
  perDay(start: number, end: number): Promise<AnalyticsPeriod['order_statistics']>;
}

/** Who makes a model, from the price table (a price's channel type names its owner). */
export type ModelOwnerOf = (model: string) => string;

function emptyTotals(): UsageTotals {
  return { request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 };
}

function addInto(target: UsageTotals, source: UsageTotals): void {
  target.request_count += source.request_count;
  target.quota += source.quota;
  target.prompt_tokens += source.prompt_tokens;
  target.completion_tokens += source.completion_tokens;
  target.request_time += source.request_time;
}

function compareText(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

/** Sums usage rows again under a new label per day (several models share an owner). */
function relabel(rows: readonly DatedUsage[], labelOf: (key: string) => string): PeriodUsageRow[] {
  const groups = new Map<string, { date: string; label: string; totals: UsageTotals }>();
  for (const row of rows) {
    const label = labelOf(row.key);
    const id = `${row.date}\u0000${label}`;
    let group = groups.get(id);
    if (!group) {
      group = { date: row.date, label, totals: emptyTotals() };
      groups.set(id, group);
    }
    addInto(group.totals, row);
  }
  return [...groups.values()]
    .sort((left, right) => compareText(left.date, right.date) || compareText(left.label, right.label))
    .map((group) => toPeriodUsageRow(group.date, group.label, group.totals));
}

/**
 * The administrators' analytics page, built on the `statistics` roll-up and on the users and
 * redemptions tables, so its cost does not grow with the number of logs; order figures come from
 * the orders table.
 */
export class AnalyticsService {
  private readonly userUsage: UserUsageReport;

  constructor(
    private readonly statistics: StatisticsRepository,
    private readonly repo: AnalyticsRepository,
    private readonly ownerOf: ModelOwnerOf,
    private readonly orders?: OrderFigures,
  ) {
    this.userUsage = new UserUsageReport(statistics, repo);
  }

  /** Named users side by side over a range of days (reference §1.16 `multi_user_stats`). */
  multiUserStats(query: MultiUserStatsQuery): Promise<MultiUserStats> {
    return this.userUsage.compare(query);
  }

  /** The same comparison as CSV text, with the file name the reference gives it. */
  async multiUserStatsCsv(query: MultiUserStatsQuery): Promise<{ fileName: string; text: string }> {
    const { data } = await this.userUsage.compare(query);
    return { fileName: `multi_user_stats_${query.start_time}_${query.end_time}.csv`, text: multiUserCsv(data) };
  }

  /** The heaviest users of a period, by quota or by requests. */
  topUsers(query: TopUsersQuery): Promise<TopUsers> {
    return this.userUsage.top(query);
  }

  async summary(): Promise<AnalyticsSummary> {
    const [users, channels, redemptions, orders] = await Promise.all([
      this.repo.userTotals(),
      this.repo.channelsByStatus(),
      this.repo.redemptionsByStatus(),
      this.orders?.totals() ?? [],
    ]);
    return {
      user_statistics: users,
      channel_statistics: channels,
      redemption_statistic: redemptions,
      order_statistics: orders,
    };
  }

  async period(query: AnalyticsPeriodQuery): Promise<AnalyticsPeriod> {
    const [registrations, redemptions, usage, orders] = await Promise.all([
      this.registrationsPerDay(query.start_timestamp, query.end_timestamp),
      this.redemptionsPerDay(query.start_timestamp, query.end_timestamp),
      this.usagePerDay(query),
      this.orders?.perDay(query.start_timestamp, query.end_timestamp) ?? [],
    ]);
    return {
      user_statistics: registrations,
      channel_statistics: usage,
      redemption_statistics: redemptions,
      order_statistics: orders,
    };
  }

  private async usagePerDay(query: AnalyticsPeriodQuery): Promise<PeriodUsageRow[]> {
    const range = {
      fromDate: localDateOf(query.start_timestamp),
      toDate: localDateOf(query.end_timestamp),
      userId: query.user_id,
    };
    if (query.group_type === 'model') {
      return relabel(await this.statistics.usageByDay(range, 'model'), (model) => model);
    }
    if (query.group_type === 'model_type') {
      return relabel(await this.statistics.usageByDay(range, 'model'), this.ownerOf);
    }
    const rows = await this.statistics.usageByDay(range, 'channel');
    const names = await this.statistics.channelNames(rows.map((row) => Number(row.key)));
    return relabel(rows, (id) => names.get(Number(id)) ?? `#${id}`);
  }

  private async registrationsPerDay(from: number, to: number): Promise<AnalyticsPeriod['user_statistics']> {
    const days = new Map<string, { date: string; user_count: number; inviter_user_count: number }>();
    for (const quarter of await this.repo.registrationsByQuarter(from, to)) {
      const date = localDateOf(quarter.quarter_start);
      const day = days.get(date) ?? { date, user_count: 0, inviter_user_count: 0 };
      day.user_count += quarter.user_count;
      day.inviter_user_count += quarter.inviter_user_count;
      days.set(date, day);
    }
    return [...days.values()].sort((left, right) => compareText(left.date, right.date));
  }

  /** Redeemed quota per day, and how many different users redeemed that day. */
  private async redemptionsPerDay(from: number, to: number): Promise<AnalyticsPeriod['redemption_statistics']> {
    const days = new Map<string, { quota: number; users: Set<number> }>();
    for (const quarter of await this.repo.redemptionsByQuarter(from, to)) {
      const date = localDateOf(quarter.quarter_start);
      const day = days.get(date) ?? { quota: 0, users: new Set<number>() };
      day.quota += quarter.quota;
      day.users.add(quarter.redeemed_user_id);
      days.set(date, day);
    }
    return [...days.entries()]
      .sort(([left], [right]) => compareText(left, right))
      .map(([date, day]) => ({ date, quota: day.quota, user_count: day.users.size }));
  }
}
