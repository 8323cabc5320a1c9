import { z } from 'zod';
import { MAX_INTEGER_COLUMN } from './paging.js';

/** Days `GET /api/user/dashboard` covers: today and the seven before it. */
export const DASHBOARD_DAYS = 8;
/** The longest range `GET /api/analytics/period` answers for, in days. */
export const ANALYTICS_MAX_DAYS = 400;

/**
 * One day's usage of one model (dashboard) or of one channel, model or owner (analytics). The keys
 * are the reference system's Go field names, which existing consoles read.
 */
export interface UsageRow {
  /** YYYY-MM-DD in the server's time zone. */
  Date: string;
  RequestCount: number;
  Quota: number;
  PromptTokens: number;
  CompletionTokens: number;
  /** Milliseconds, summed over the requests. */
  RequestTime: number;
}

export interface DashboardRow extends UsageRow {
  ModelName: string;
}

export interface DashboardRate {
  /** Requests counted against the caller's user-group limit in the current minute. */
  rpm: number;
  maxRPM: number;
  /** rpm / maxRPM in percent, two decimals; 0 when the group has no limit. */
  usageRpmRate: number;
  tpm: number;
  maxTPM: number;
  usageTpmRate: number;
}

export interface AnalyticsSummary {
  user_statistics: {
    total_quota: number;
    total_used_quota: number;
    total_user: number;
    total_inviter_user: number;
  };
  channel_statistics: Array<{ total_channels: number; status: number }>;
  /** Every status except disabled (2), as the reference reports it. */
  redemption_statistic: Array<{ count: number; quota: number; status: number }>;
  order_statistics: Array<{ quota: number; money: number; order_currency: string }>;
}

export interface PeriodUsageRow extends UsageRow {
  /** Channel name, model name or model owner, after `group_type`. */
  Channel: string;
}

export interface AnalyticsPeriod {
  user_statistics: Array<{ date: string; user_count: number; inviter_user_count: number }>;
  channel_statistics: PeriodUsageRow[];
  redemption_statistics: Array<{ date: string; quota: number; user_count: number }>;
  order_statistics: Array<{ date: string; order_amount: number }>;
}

function unixSeconds(field: string) {
  return z.coerce
    .number(`${field} must be a Unix time in seconds`)
    .int(`${field} must be a whole number of seconds`)
    .min(0, `${field} must not be negative`)
    .max(253_402_300_799, `${field} is too large`);
}

/** A range of Unix seconds must run forwards and span at most ANALYTICS_MAX_DAYS. */
function checkTimestampRange(
  query: { start_timestamp: number; end_timestamp: number },
  context: z.RefinementCtx,
): void {
  if (query.end_timestamp < query.start_timestamp) {
    context.addIssue({
      code: 'custom',
      path: ['end_timestamp'],
      message: 'end_timestamp must not be before start_timestamp',
    });
  } else if (query.end_timestamp - query.start_timestamp > ANALYTICS_MAX_DAYS * 86_400) {
    context.addIssue({
      code: 'custom',
      path: ['end_timestamp'],
      message: `end_timestamp must be at most ${ANALYTICS_MAX_DAYS} days after start_timestamp`,
    });
  }
}

export const analyticsPeriodQuery = z
  .object({
    start_timestamp: unixSeconds('start_timestamp'),
    end_timestamp: unixSeconds('end_timestamp'),
    /** `model`, `model_type` (the model's owner), anything else: channel. */
    group_type: z.string().trim().max(20, 'group_type must be at most 20 characters').optional(),
    /** Narrows the usage rows to one user; 0 or absent means everyone. */
    user_id: z.coerce
      .number('user_id must be a number')
      .int('user_id must be an integer')
      .min(0, 'user_id must not be negative')
      .max(MAX_INTEGER_COLUMN, 'user_id is too large')
      .optional(),
  })
  .superRefine(checkTimestampRange);
export type AnalyticsPeriodQuery = z.infer<typeof analyticsPeriodQuery>;

/** The most users `GET /api/analytics/multi_user_stats` compares at once. */
export const MULTI_USER_MAX = 50;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (2024-02-30 is not one). */
export function isCalendarDay(text: string): boolean {
  const match = DAY_PATTERN.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const moment = new Date(Date.UTC(year, month - 1, day));
  return moment.getUTCFullYear() === year && moment.getUTCMonth() === month - 1 && moment.getUTCDate() === day;
}

/** Whole days from one YYYY-MM-DD to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Splits a comma list of usernames into trimmed, non-empty, distinct names, in the order given. */
export function splitUsernames(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
}

function calendarDay(field: string) {
  return z
    .string(`${field} is required`)
    .trim()
    .min(1, `${field} is required`)
    .refine(isCalendarDay, `${field} must be a date written YYYY-MM-DD`);
}

/** `GET /api/analytics/multi_user_stats` and its CSV export. */
export const multiUserStatsQuery = z
  .object({
    usernames: z
      .string('usernames is required')
      .transform(splitUsernames)
      .refine((names) => names.length > 0, 'usernames must name at least one user')
      .refine((names) => names.length <= MULTI_USER_MAX, `usernames must list at most ${MULTI_USER_MAX} users`)
      .refine((names) => names.every((name) => name.length <= 64), 'usernames must be at most 64 characters each'),
    start_time: calendarDay('start_time'),
    end_time: calendarDay('end_time'),
  })
  .superRefine((query, context) => {
    const span = daysBetween(query.start_time, query.end_time);
    if (span < 0) {
      context.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time must not be before start_time' });
    } else if (span > ANALYTICS_MAX_DAYS) {
      context.addIssue({
        code: 'custom',
        path: ['end_time'],
        message: `end_time must be at most ${ANALYTICS_MAX_DAYS} days after start_time`,
      });
    }
  });
export type MultiUserStatsQuery = z.infer<typeof multiUserStatsQuery>;

/** One compared user's sums over the period (from the daily roll-up). */
export interface MultiUserStatsRow {
  username: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Milliseconds, summed over the requests. */
  request_time: number;
}

export interface MultiUserModelUsage {
  username: string;
  model_name: string;
  request_count: number;
}

/**
 * The reference puts `model_usage` beside `data` at the top level of the envelope, not inside it;
 * kept so, for existing consoles.
 */
export interface MultiUserStatsResponse {
  success: boolean;
  message: string;
  data: MultiUserStatsRow[];
  model_usage: MultiUserModelUsage[];
}

/** The CSV export's header line, as the reference writes it. */
export const MULTI_USER_CSV_HEADER = [
  'Username',
  'Request Count',
  'Quota',
  'Prompt Tokens',
  'Completion Tokens',
  'Request Time (ms)',
] as const;

/** What `GET /api/analytics/top_users` ranks by. */
export const TOP_USERS_ORDERS = ['quota', 'request_count'] as const;
export type TopUsersOrder = (typeof TOP_USERS_ORDERS)[number];
export const TOP_USERS_MAX = 100;

/** `GET /api/analytics/top_users`: the heaviest users of a period (same range rules as `/period`). */
export const topUsersQuery = z
  .object({
    start_timestamp: unixSeconds('start_timestamp'),
    end_timestamp: unixSeconds('end_timestamp'),
    order: z.enum(TOP_USERS_ORDERS, `order must be one of ${TOP_USERS_ORDERS.join(', ')}`).default('quota'),
    limit: z.coerce
      .number('limit must be a number')
      .int('limit must be an integer')
      .min(1, 'limit must be at least 1')
      .max(TOP_USERS_MAX, `limit must be at most ${TOP_USERS_MAX}`)
      .default(10),
  })
  .superRefine(checkTimestampRange);
export type TopUsersQuery = z.infer<typeof topUsersQuery>;

export interface TopUserRow {
  user_id: number;
  /** '' when the user row no longer exists. */
  username: string;
  display_name: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

export interface TopUsers {
  /** Users with any usage in the period. */
  active_users: number;
  /** Sums over every user of the period, so a row's share can be shown. */
  total_quota: number;
  total_request_count: number;
  users: TopUserRow[];
}
