import {
  csvDocument,
  MULTI_USER_CSV_HEADER,
  type MultiUserModelUsage,
  type MultiUserStatsQuery,
  type MultiUserStatsRow,
  type TopUsers,
  type TopUsersQuery,
} from '@one-hub/contracts';
import type { AnalyticsRepository } from './analytics-repo.js';
import { localDateOf } from './dates.js';
import type { StatisticsRepository, UsageTotals } from './repo.js';

export interface MultiUserStats {
  data: MultiUserStatsRow[];
  model_usage: MultiUserModelUsage[];
}

const NO_USAGE: UsageTotals = { request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 };

/**
 * Usage per user, read from the `statistics` roll-up (it is keyed by user as well as by day,
 * channel and model), so the cost follows the number of users and days asked for, never the
 * number of logs.
 */
export class UserUsageReport {
  constructor(
    private readonly statistics: StatisticsRepository,
    private readonly repo: AnalyticsRepository,
  ) {}

  /**
   * Each named user that exists, in the order asked, with zeros when they used nothing; unknown
   * names, and the hidden users' (those the caller does not outrank), are left out alike. Days
   * are the roll-up's local days, both ends included.
   */
  async compare(query: MultiUserStatsQuery, hiddenUserIds: readonly number[]): Promise<MultiUserStats> {
    const hidden = new Set(hiddenUserIds);
    const users = (await this.repo.usersNamed(query.usernames)).filter((user) => !hidden.has(user.id));
    const order = new Map(query.usernames.map((name, index) => [name, index]));
    users.sort((left, right) => (order.get(left.username) ?? 0) - (order.get(right.username) ?? 0));
    const range = { fromDate: query.start_time, toDate: query.end_time };
    const ids = users.map((user) => user.id);
    const [usage, models] = await Promise.all([
      this.statistics.usageOfUsers(range, ids),
      this.statistics.modelRequestsOfUsers(range, ids),
    ]);
    const usageOf = new Map(usage.map((row) => [row.user_id, row]));
    const data = users.map((user) => {
      const { request_count, quota, prompt_tokens, completion_tokens, request_time } = usageOf.get(user.id) ?? NO_USAGE;
      return { username: user.username, request_count, quota, prompt_tokens, completion_tokens, request_time };
    });
    const position = new Map(users.map((user, index) => [user.id, index]));
    const nameOf = new Map(users.map((user) => [user.id, user.username]));
    const model_usage = models
      .sort(
        (left, right) =>
          (position.get(left.user_id) ?? 0) - (position.get(right.user_id) ?? 0) ||
          right.request_count - left.request_count ||
          (left.model_name < right.model_name ? -1 : left.model_name > right.model_name ? 1 : 0),
      )
      .map((row) => ({
        username: nameOf.get(row.user_id) ?? '',
        model_name: row.model_name,
        request_count: row.request_count,
      }));
    return { data, model_usage };
  }

  /**
   * The heaviest users of a period, with the period's totals over the same users: everyone but
   * the hidden ones, so the totals never tell what root and the other admins used.
   */
  async top(query: TopUsersQuery, hiddenUserIds: readonly number[]): Promise<TopUsers> {
    const range = {
      fromDate: localDateOf(query.start_timestamp),
      toDate: localDateOf(query.end_timestamp),
      hiddenUserIds,
    };
    const [rows, totals] = await Promise.all([
      this.statistics.topUsers(range, query.order, query.limit),
      this.statistics.userTotals(range),
    ]);
    const names = await this.repo.usersById(rows.map((row) => row.user_id));
    return {
      active_users: totals.active_users,
      total_quota: totals.quota,
      total_request_count: totals.request_count,
      users: rows.map((row) => ({
        ...row,
        username: names.get(row.user_id)?.username ?? '',
        display_name: names.get(row.user_id)?.display_name ?? '',
      })),
    };
  }
}

/** The export's text: the reference's header line, then one line per user, CRLF line ends. */
export function multiUserCsv(rows: readonly MultiUserStatsRow[]): string {
  return csvDocument([
    MULTI_USER_CSV_HEADER,
    ...rows.map((row) => [
      row.username,
      row.request_count,
      row.quota,
      row.prompt_tokens,
      row.completion_tokens,
      row.request_time,
    ]),
  ]);
}
