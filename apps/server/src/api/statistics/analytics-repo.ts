import { RedemptionStatus } from '@one-hub/contracts';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { type UserName, userNamesById } from '../user/names.js';

export interface UserTotals {
  total_quota: number;
  total_used_quota: number;
  total_user: number;
  total_inviter_user: number;
}

/** Figures for one quarter hour (its start in Unix seconds); see `quarterOf`. */
export interface QuarterRegistrations {
  quarter_start: number;
  user_count: number;
  inviter_user_count: number;
}

export interface QuarterRedemptions {
  quarter_start: number;
  redeemed_user_id: number;
  quota: number;
}

/**
 * Every time-zone offset in use, and every DST change, falls on a multiple of 15 minutes, so a
 * quarter hour lies within one local day: grouping by quarter hour here and by local day in the
 * service gives exact daily figures without asking three databases for time-zone support. The
 * 900 is a literal, not a bound parameter: PostgreSQL matches a grouped expression to the
 * selected one by its text.
 */
const quarterOf = (column: 'created_time' | 'redeemed_time') =>
  sql<number | string>`${sql.ref(column)} - ${sql.ref(column)} % 900`;

/**
 * Aggregates over users, channels and redemption codes for the analytics page; never reads logs.
 * `hidden` (an admin's view: root and the other admins, a short list) leaves those users, and the
 * codes they created, out of the figures, as the admin's user and code lists leave them out.
 */
export class AnalyticsRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  async userTotals(hidden: readonly number[]): Promise<UserTotals> {
    const row = await this.handle.db
      .selectFrom('users')
      .select([
        sql<number | string | null>`sum(quota)`.as('total_quota'),
        sql<number | string | null>`sum(used_quota)`.as('total_used_quota'),
        sql<number | string>`count(*)`.as('total_user'),
        sql<number | string | null>`sum(case when inviter_id <> 0 then 1 else 0 end)`.as('total_inviter_user'),
      ])
      .where('deleted_at', 'is', null)
      .$if(hidden.length > 0, (query) => query.where('id', 'not in', [...hidden]))
      .executeTakeFirst();
    return {
      total_quota: Number(row?.total_quota ?? 0),
      total_used_quota: Number(row?.total_used_quota ?? 0),
      total_user: Number(row?.total_user ?? 0),
      total_inviter_user: Number(row?.total_inviter_user ?? 0),
    };
  }

  async channelsByStatus(): Promise<Array<{ total_channels: number; status: number }>> {
    const rows = await this.handle.db
      .selectFrom('channels')
      .select(['status', sql<number | string>`count(*)`.as('total_channels')])
      .where('deleted_at', 'is', null)
      .groupBy('status')
      .orderBy('status')
      .execute();
    return rows.map((row) => ({ total_channels: Number(row.total_channels), status: Number(row.status) }));
  }

  /** Codes per status, disabled ones left out as in the reference. */
  async redemptionsByStatus(
    hidden: readonly number[],
  ): Promise<Array<{ count: number; quota: number; status: number }>> {
    const rows = await this.handle.db
      .selectFrom('redemptions')
      .select(['status', sql<number | string>`count(*)`.as('count'), sql<number | string>`sum(quota)`.as('quota')])
      .where('status', '!=', RedemptionStatus.disabled)
      .$if(hidden.length > 0, (query) => query.where('user_id', 'not in', [...hidden]))
      .groupBy('status')
      .orderBy('status')
      .execute();
    return rows.map((row) => ({ count: Number(row.count), quota: Number(row.quota), status: Number(row.status) }));
  }

  /** Registrations of users still present, per quarter hour of `created_time` in [from, to]. */
  async registrationsByQuarter(from: number, to: number, hidden: readonly number[]): Promise<QuarterRegistrations[]> {
    const rows = await this.handle.db
      .selectFrom('users')
      .select([
        quarterOf('created_time').as('quarter_start'),
        sql<number | string>`count(*)`.as('user_count'),
        sql<number | string>`sum(case when inviter_id <> 0 then 1 else 0 end)`.as('inviter_user_count'),
      ])
      .where('deleted_at', 'is', null)
      .where('created_time', '>=', from)
      .where('created_time', '<=', to)
      .$if(hidden.length > 0, (query) => query.where('id', 'not in', [...hidden]))
      .groupBy(quarterOf('created_time'))
      .execute();
    return rows.map((row) => ({
      quarter_start: Number(row.quarter_start),
      user_count: Number(row.user_count),
      inviter_user_count: Number(row.inviter_user_count),
    }));
  }

  /** Redeemed quota per quarter hour of `redeemed_time` in [from, to] and per redeeming user. */
  async redemptionsByQuarter(from: number, to: number, hidden: readonly number[]): Promise<QuarterRedemptions[]> {
    const rows = await this.handle.db
      .selectFrom('redemptions')
      .select([
        quarterOf('redeemed_time').as('quarter_start'),
        'redeemed_user_id',
        sql<number | string>`sum(quota)`.as('quota'),
      ])
      .where('status', '=', RedemptionStatus.redeemed)
      .where('redeemed_time', '>=', from)
      .where('redeemed_time', '<=', to)
      .$if(hidden.length > 0, (query) => query.where('user_id', 'not in', [...hidden]))
      .groupBy([quarterOf('redeemed_time'), 'redeemed_user_id'])
      .execute();
    return rows.map((row) => ({
      quarter_start: Number(row.quarter_start),
      redeemed_user_id: Number(row.redeemed_user_id),
      quota: Number(row.quota),
    }));
  }

  /**
   * Users by exact username, deleted ones included (their usage still happened; usernames stay
   * unique). Matched again in code because MySQL compares text without regard to case.
   */
  async usersNamed(usernames: readonly string[]): Promise<UserName[]> {
    if (usernames.length === 0) return [];
    const rows = await this.handle.db
      .selectFrom('users')
      .select(['id', 'username', 'display_name'])
      .where('username', 'in', [...usernames])
      .execute();
    const wanted = new Set(usernames);
    return rows
      .filter((row) => wanted.has(row.username))
      .map((row) => ({ id: Number(row.id), username: row.username, display_name: row.display_name }));
  }

  /** Users by id, deleted ones included. */
  usersById(ids: readonly number[]): Promise<Map<number, UserName>> {
    return userNamesById(this.handle, ids);
  }
}
