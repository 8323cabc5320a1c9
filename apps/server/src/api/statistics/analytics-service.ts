import type {
  AnalyticsPeriod,
  AnalyticsPeriodQuery,
  AnalyticsSummary,
  MultiUserStatsQuery,
  PeriodUsageRow,
  TopUsers,
  TopUsersQuery,
} from '@one-hub/contracts';
import type { UserRow } from '../../platform/db/index.js';
import type { AnalyticsRepository } from './analytics-repo.js';
import { localDateOf } from './dates.js';
import { toPeriodUsageRow } from './presenter.js';
import type { DatedUsage, StatisticsRepository, UsageRange, UsageTotals } from './repo.js';
import { type MultiUserStats, multiUserCsv, UserUsageReport } from './user-usage.js';

/** Successful orders (api/payment/order-statistics.ts); absent, the order lists stay empty. */
export interface OrderFigures {
  totals(hidden: readonly number[]): Promise<AnalyticsSummary['order_statistics']>;
  perDay(start: number, end: number, hidden: readonly number[]): Promise<AnalyticsPeriod['order_statistics']>;
}

/** Who makes a model, from the price table (a price's channel type names its owner). */
export type ModelOwnerOf = (model: string) => string;

/** The users whose figures `caller` may not see (UserRepository.idsNotOutrankedBy): none for root. */
export type HiddenUsersOf = (caller: Pick<UserRow, 'id' | 'role'>) => Promise<number[]>;

function emptyTotals(): UsageTotals {
  return { request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 };
}

const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;

function addInto(target: UsageTotals, source: UsageTotals): void {
  for (const counter of COUNTERS) target[counter] += source[counter];
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

/** Takes each (date, key) share of `hidden` off `totals`; a row left with no request goes. */
function withoutShares(totals: readonly DatedUsage[], hidden: readonly DatedUsage[]): DatedUsage[] {
  if (hidden.length === 0) return [...totals];
  const shares = new Map(hidden.map((row) => [`${row.date}\u0000${row.key}`, row]));
  const left: DatedUsage[] = [];
  for (const row of totals) {
    const share = shares.get(`${row.date}\u0000${row.key}`);
    if (!share) {
      left.push(row);
      continue;
    }
    const rest = { ...row };
    for (const counter of COUNTERS) rest[counter] -= share[counter];
    if (rest.request_count > 0) left.push(rest);
  }
  return left;
}

/**
 * The administrators' analytics page, built on the `statistics` roll-up and on the users and
 * redemptions tables, so its cost does not grow with the number of logs; order figures come from
 * the orders table.
 *
 * An admin's figures, per-user rows and totals alike, cover itself and the users it outranks,
 * as its user, code and log lists do: root and the other admins are left out (root sees all).
 */
export class AnalyticsService {
  private readonly userUsage: UserUsageReport;

  constructor(
    private readonly statistics: StatisticsRepository,
    private readonly repo: AnalyticsRepository,
    private readonly ownerOf: ModelOwnerOf,
    private readonly hiddenUsersOf: HiddenUsersOf,
    private readonly orders?: OrderFigures,
  ) {
    this.userUsage = new UserUsageReport(statistics, repo);
  }

  /** Named users side by side over a range of days (reference §1.16 `multi_user_stats`). */
  async multiUserStats(caller: UserRow, query: MultiUserStatsQuery): Promise<MultiUserStats> {
    return this.userUsage.compare(query, await this.hiddenUsersOf(caller));
  }

  /** The same comparison as CSV text, with the file name the reference gives it. */
  async multiUserStatsCsv(caller: UserRow, query: MultiUserStatsQuery): Promise<{ fileName: string; text: string }> {
    const { data } = await this.userUsage.compare(query, await this.hiddenUsersOf(caller));
    return { fileName: `multi_user_stats_${query.start_time}_${query.end_time}.csv`, text: multiUserCsv(data) };
  }

  /** The heaviest users of a period, by quota or by requests. */
  async topUsers(caller: UserRow, query: TopUsersQuery): Promise<TopUsers> {
    return this.userUsage.top(query, await this.hiddenUsersOf(caller));
  }

  async summary(caller: UserRow): Promise<AnalyticsSummary> {
    const hidden = await this.hiddenUsersOf(caller);
    const [users, channels, redemptions, orders] = await Promise.all([
      this.repo.userTotals(hidden),
      this.repo.channelsByStatus(),
      this.repo.redemptionsByStatus(hidden),
      this.orders?.totals(hidden) ?? [],
    ]);
    return {
      user_statistics: users,
      channel_statistics: channels,
      redemption_statistic: redemptions,
      order_statistics: orders,
    };
  }

  async period(caller: UserRow, query: AnalyticsPeriodQuery): Promise<AnalyticsPeriod> {
    const hidden = await this.hiddenUsersOf(caller);
    const [registrations, redemptions, usage, orders] = await Promise.all([
      this.registrationsPerDay(query.start_timestamp, query.end_timestamp, hidden),
      this.redemptionsPerDay(query.start_timestamp, query.end_timestamp, hidden),
      this.usagePerDay(query, hidden),
      this.orders?.perDay(query.start_timestamp, query.end_timestamp, hidden) ?? [],
    ]);
    return {
      user_statistics: registrations,
      channel_statistics: usage,
      redemption_statistics: redemptions,
      order_statistics: orders,
    };
  }

  private async usagePerDay(query: AnalyticsPeriodQuery, hidden: readonly number[]): Promise<PeriodUsageRow[]> {
    // A hidden user's own usage reads as none, as its logs do.
    if (query.user_id && hidden.includes(query.user_id)) return [];
    const range = {
      fromDate: localDateOf(query.start_timestamp),
      toDate: localDateOf(query.end_timestamp),
      userId: query.user_id,
    };
    if (query.group_type === 'model') {
      return relabel(await this.usageByDay(range, 'model', hidden), (model) => model);
    }
    if (query.group_type === 'model_type') {
      return relabel(await this.usageByDay(range, 'model', hidden), this.ownerOf);
    }
    const rows = await this.usageByDay(range, 'channel', hidden);
    const names = await this.statistics.channelNames(rows.map((row) => Number(row.key)));
    return relabel(rows, (id) => names.get(Number(id)) ?? `#${id}`);
  }

  /**
   * The roll-up's per-key days cannot sum "everyone but these": without a user, the hidden users'
   * rows (a few staff, read through the (user_id, date) index) are taken off instead.
   */
  private async usageByDay(range: UsageRange, by: 'model' | 'channel', hidden: readonly number[]) {
    const totals = await this.statistics.usageByDay(range, by);
    if (range.userId || hidden.length === 0) return totals;
    return withoutShares(totals, await this.statistics.usageByDayOfUsers(range, by, hidden));
  }

  private async registrationsPerDay(
    from: number,
    to: number,
    hidden: readonly number[],
  ): Promise<AnalyticsPeriod['user_statistics']> {
    const days = new Map<string, { date: string; user_count: number; inviter_user_count: number }>();
    for (const quarter of await this.repo.registrationsByQuarter(from, to, hidden)) {
      const date = localDateOf(quarter.quarter_start);
      const day = days.get(date) ?? { date, user_count: 0, inviter_user_count: 0 };
      day.user_count += quarter.user_count;
      day.inviter_user_count += quarter.inviter_user_count;
      days.set(date, day);
    }
    return [...days.values()].sort((left, right) => compareText(left.date, right.date));
  }

  /** Redeemed quota per day, and how many different users redeemed that day. */
  private async redemptionsPerDay(
    from: number,
    to: number,
    hidden: readonly number[],
  ): Promise<AnalyticsPeriod['redemption_statistics']> {
    const days = new Map<string, { quota: number; users: Set<number> }>();
    for (const quarter of await this.repo.redemptionsByQuarter(from, to, hidden)) {
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
