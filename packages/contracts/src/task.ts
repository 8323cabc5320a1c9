import { z } from 'zod';
import { MAX_INTEGER_COLUMN, pageQuery, unixSecondsFilter } from './paging.js';

/** Platforms stored in `tasks`. */
export const TASK_PLATFORMS = ['suno', 'kling'] as const;

/** Task statuses as stored (upstream states are mapped onto these). */
export const TASK_STATUSES = [
  'NOT_START',
  'SUBMITTED',
  'QUEUED',
  'IN_PROGRESS',
  'FAILURE',
  'SUCCESS',
  'UNKNOWN',
] as const;

/** Actions: Suno `MUSIC`/`LYRICS`, Kling `text2video`/`image2video`. */
export const TASK_ACTIONS = ['MUSIC', 'LYRICS', 'text2video', 'image2video'] as const;

/** Columns the task list may be ordered by; `id` is always the last tie-breaker. */
export const TASK_SORT_FIELDS = [
  'id',
  'created_at',
  'submit_time',
  'finish_time',
  'channel_id',
  'user_id',
  'platform',
  'action',
  'status',
] as const;

function idFilter(field: string) {
  return z.coerce
    .number(`${field} must be a number`)
    .int(`${field} must be an integer`)
    .min(0, `${field} must not be negative`)
    .max(MAX_INTEGER_COLUMN, `${field} is too large`)
    .optional();
}

function textFilter(field: string, max: number) {
  return z.string(`${field} must be a single text value`).trim().max(max, `${field} is too long`).optional();
}

/** `user_ids=1,2,3`: comma-separated user ids (admin list only). */
const userIdsFilter = z
  .string('user_ids must be a comma-separated list of ids')
  .trim()
  .max(2000, 'user_ids is too long')
  .regex(/^(\d+(,\d+)*)?$/, 'user_ids must be a comma-separated list of ids')
  .optional()
  .transform((text) => (text ? text.split(',').map(Number) : undefined));

/**
 * Query of `GET /api/task/` (admin) and `GET /api/task/self` (own tasks). `channel_id`, `user_id`
 * and `user_ids` are only honoured on the admin list, `token_id` only on the own list; 0 or empty
 * means "no filter". `start_timestamp`/`end_timestamp` bound `submit_time` (seconds).
 */
export const taskListQuery = pageQuery.extend({
  platform: textFilter('platform', 30),
  channel_id: idFilter('channel_id'),
  token_id: idFilter('token_id'),
  user_id: idFilter('user_id'),
  user_ids: userIdsFilter,
  task_id: textFilter('task_id', 50),
  action: textFilter('action', 40),
  status: textFilter('status', 20),
  start_timestamp: unixSecondsFilter('start_timestamp'),
  end_timestamp: unixSecondsFilter('end_timestamp'),
});
export type TaskListQuery = z.infer<typeof taskListQuery>;

/** One `tasks` row as `/api/task/` returns it. Times are Unix seconds (0 = not yet). */
export interface AsyncTaskView {
  id: number;
  created_at: number;
  updated_at: number;
  /** The upstream's task id (Suno clip/task id, Kling task_id). */
  task_id: string;
  /** suno or kling. */
  platform: string;
  user_id: number;
  /** Absent on `/api/task/self`. */
  channel_id?: number;
  quota: number;
  /** MUSIC, LYRICS, text2video, image2video. */
  action: string;
  /** NOT_START, SUBMITTED, QUEUED, IN_PROGRESS, FAILURE, SUCCESS, UNKNOWN. */
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  /** 0–100. */
  progress: number;
  /** The client's submit body (parsed JSON), null when none. */
  properties: unknown;
  /** The upstream's latest task data (parsed JSON), null when none. */
  data: unknown;
  notify_hook?: string;
  token_id: number;
}
