import { sql } from 'kysely';
import type { DatabaseHandle } from '../../platform/db/index.js';

/** Summed counters of one group of `statistics` rows, as numbers whatever the driver returned. */
export interface UsageTotals {
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

export interface DatedUsage extends UsageTotals {
  date: string;
  /** The model name, or the channel id as text, after what was grouped by. */
  key: string;
}

export interface UsageRange {
  fromDate: string;
  toDate: string;
  /** Only this user's rows when set (and not 0). */
  userId?: number | undefined;
}

const sums = [
  sql<number | string>`sum(request_count)`.as('request_count'),
  sql<number | string>`sum(quota)`.as('quota'),
  sql<number | string>`sum(prompt_tokens)`.as('prompt_tokens'),
  sql<number | string>`sum(completion_tokens)`.as('completion_tokens'),
  sql<number | string>`sum(request_time)`.as('request_time'),
] as const;

interface RawUsage {
  date: string;
  key: string | number;
  request_count: number | string;
  quota: number | string;
  prompt_tokens: number | string;
  completion_tokens: number | string;
  request_time: number | string;
}

function toDatedUsage(row: RawUsage): DatedUsage {
  return {
    date: row.date,
    key: String(row.key),
    request_count: Number(row.request_count),
    quota: Number(row.quota),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    request_time: Number(row.request_time),
  };
}

/** One user's sums over a range of days. */
export interface UserUsage extends UsageTotals {
  user_id: number;
}

export interface UserModelRequests {
  user_id: number;
  model_name: string;
  request_count: number;
}

/** What ranks users: their summed quota or their summed requests. */
export type UserRanking = 'quota' | 'request_count';

export interface DayRange {
  fromDate: string;
  toDate: string;
  /** These users' rows are left out (an admin's view: root and the other admins). */
  hiddenUserIds?: readonly number[] | undefined;
}

/** Whole days of the roll-up (no `toDate`: every day from `fromDate` on), narrowed like the log statistics. */
export interface QuotaRange {
  fromDate: string;
  toDate?: string | undefined;
  userId?: number | undefined;
  modelName?: string | undefined;
  channelId?: number | undefined;
  /** A key name: read from `statistics_token_days` (migration 0028), which has no channel. */
  tokenName?: string | undefined;
}

function toUserUsage(row: Omit<RawUsage, 'date' | 'key'> & { user_id: number | string }): UserUsage {
  return {
    user_id: Number(row.user_id),
    request_count: Number(row.request_count),
    quota: Number(row.quota),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    request_time: Number(row.request_time),
  };
}

/** By date, then by key in code-point order. */
export function compareDatedUsage(left: DatedUsage, right: DatedUsage): number {
  if (left.date !== right.date) return left.date < right.date ? -1 : 1;
  if (left.key === right.key) return 0;
  return left.key < right.key ? -1 : 1;
}

/** Reads the `statistics` roll-up; it is written by the log writer (see rollup.ts). */
export class StatisticsRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  /**
   * Usage per day and model, or per day and channel, over an inclusive range of dates. Without a
   * user, from the per-day-and-key roll-up (one row per day and key, migration 0015); a user's
   * own rows come from `statistics` through its (user_id, date) index.
   */
  async usageByDay(range: UsageRange, by: 'model' | 'channel'): Promise<DatedUsage[]> {
    const keyColumn = by === 'model' ? 'model_name' : 'channel_id';
    const perKey = by === 'model' ? 'statistics_model_days' : 'statistics_channel_days';
    // The per-key tables have no user_id; typed as `statistics` to share the query below.
    let query = this.handle.db
      .selectFrom((range.userId ? 'statistics' : perKey) as 'statistics')
      .select(['date', sql<string | number>`${sql.ref(keyColumn)}`.as('key'), ...sums])
      .where('date', '>=', range.fromDate)
      .where('date', '<=', range.toDate);
    if (range.userId) query = query.where('user_id', '=', range.userId);
    const rows = await query.groupBy(['date', keyColumn]).execute();
    return rows.map(toDatedUsage);
  }

  /**
   * What the listed users (a few staff) add to `usageByDay` without a user: their rows, through
   * the (user_id, date) index, summed per day and key, ready to be taken off those totals.
   */
  async usageByDayOfUsers(range: DayRange, by: 'model' | 'channel', userIds: readonly number[]): Promise<DatedUsage[]> {
    if (userIds.length === 0) return [];
    const keyColumn = by === 'model' ? 'model_name' : 'channel_id';
    const rows = await this.handle.db
      .selectFrom('statistics')
      .select(['date', sql<string | number>`${sql.ref(keyColumn)}`.as('key'), ...sums])
      .where('user_id', 'in', [...userIds])
      .where('date', '>=', range.fromDate)
      .where('date', '<=', range.toDate)
      .groupBy(['date', keyColumn])
      .execute();
    return rows.map(toDatedUsage);
  }

  /**
   * Summed quota of the roll-up's rows in the range; each filter given narrows it. Without one,
   * the per-day totals are read: one row a day rather than every user, channel and model of it.
   * With a key name, the token days: a row per day, user, key and model, found by key name (with
   * the model) or by user and key name; a key with a channel is not asked here (no channel there).
   */
  async quotaOver(range: QuotaRange): Promise<number> {
    const quota = sql<number | string | null>`sum(quota)`.as('quota');
    const { fromDate, toDate, userId, modelName, channelId, tokenName } = range;
    if (tokenName) {
      if (channelId) throw new Error('the token days have no channel');
      let tokens = this.handle.db.selectFrom('statistics_token_days').select(quota).where('token_name', '=', tokenName);
      if (userId !== undefined) tokens = tokens.where('user_id', '=', userId);
      if (modelName) tokens = tokens.where('model_name', '=', modelName);
      tokens = tokens.where('date', '>=', fromDate);
      if (toDate !== undefined) tokens = tokens.where('date', '<=', toDate);
      return Number((await tokens.executeTakeFirst())?.quota ?? 0);
    }
    if (userId === undefined && !modelName && !channelId) {
      let days = this.handle.db.selectFrom('statistics_days').select(quota).where('date', '>=', fromDate);
      if (toDate !== undefined) days = days.where('date', '<=', toDate);
      return Number((await days.executeTakeFirst())?.quota ?? 0);
    }
    let query = this.handle.db.selectFrom('statistics').select(quota).where('date', '>=', fromDate);
    if (toDate !== undefined) query = query.where('date', '<=', toDate);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    if (modelName) query = query.where('model_name', '=', modelName);
    if (channelId) query = query.where('channel_id', '=', channelId);
    return Number((await query.executeTakeFirst())?.quota ?? 0);
  }

  /** Summed quota of the hour totals (migration 0028) of the hours starting from `firstHour` to `lastHour`, both included. */
  async quotaOfHours(firstHour: number, lastHour: number): Promise<number> {
    const row = await this.handle.db
      .selectFrom('statistics_hours')
      .select(sql<number | string | null>`sum(quota)`.as('quota'))
      .where('hour_start', '>=', firstHour)
      .where('hour_start', '<=', lastHour)
      .executeTakeFirst();
    return Number(row?.quota ?? 0);
  }

  /** Each listed user's sums over the range; users without usage are absent. */
  async usageOfUsers(range: DayRange, userIds: readonly number[]): Promise<UserUsage[]> {
    if (userIds.length === 0) return [];
    const rows = await this.inRange(range)
      .select(['user_id', ...sums])
      .where('user_id', 'in', [...userIds])
      .groupBy('user_id')
      .execute();
    return rows.map(toUserUsage);
  }

  /** Requests per listed user and model over the range. */
  async modelRequestsOfUsers(range: DayRange, userIds: readonly number[]): Promise<UserModelRequests[]> {
    if (userIds.length === 0) return [];
    const rows = await this.inRange(range)
      .select(['user_id', 'model_name', sql<number | string>`sum(request_count)`.as('request_count')])
      .where('user_id', 'in', [...userIds])
      .groupBy(['user_id', 'model_name'])
      .execute();
    return rows.map((row) => ({
      user_id: Number(row.user_id),
      model_name: row.model_name,
      request_count: Number(row.request_count),
    }));
  }

  /** The `limit` users with the most quota (or requests) over the range; ties go to the lower id. */
  async topUsers(range: DayRange, ranking: UserRanking, limit: number): Promise<UserUsage[]> {
    const rows = await this.inRange(range)
      .select(['user_id', ...sums])
      .groupBy('user_id')
      .orderBy(sql`sum(${sql.ref(ranking)})`, 'desc')
      .orderBy('user_id', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toUserUsage);
  }

  /** How many users had usage over the range, and what they used together. */
  async userTotals(range: DayRange): Promise<{ active_users: number; quota: number; request_count: number }> {
    const row = await this.inRange(range)
      .select([
        sql<number | string>`count(distinct user_id)`.as('active_users'),
        sql<number | string | null>`sum(quota)`.as('quota'),
        sql<number | string | null>`sum(request_count)`.as('request_count'),
      ])
      .executeTakeFirst();
    return {
      active_users: Number(row?.active_users ?? 0),
      quota: Number(row?.quota ?? 0),
      request_count: Number(row?.request_count ?? 0),
    };
  }

  /** The range's rows, the hidden users' left out: they are in the same scan by date, so it costs nothing more. */
  private inRange(range: DayRange) {
    const query = this.handle.db
      .selectFrom('statistics')
      .where('date', '>=', range.fromDate)
      .where('date', '<=', range.toDate);
    const hidden = range.hiddenUserIds ?? [];
    return hidden.length === 0 ? query : query.where('user_id', 'not in', [...hidden]);
  }

  /** Names of channels by id, deleted ones included: their usage still happened. */
  async channelNames(ids: readonly number[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Map();
    const rows = await this.handle.db.selectFrom('channels').select(['id', 'name']).where('id', 'in', wanted).execute();
    return new Map(rows.map((row) => [Number(row.id), row.name]));
  }
}
