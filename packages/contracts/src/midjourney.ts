import { z } from 'zod';
import { MAX_INTEGER_COLUMN, pageQuery } from './paging.js';

/** Columns the Midjourney task list may be ordered by; `id` is always the last tie-breaker. */
export const MIDJOURNEY_SORT_FIELDS = [
  'id',
  'user_id',
  'code',
  'action',
  'mj_id',
  'submit_time',
  'start_time',
  'finish_time',
  'status',
  'channel_id',
] as const;

/** Task statuses as midjourney-proxy reports them; other values are stored verbatim. */
export const MIDJOURNEY_STATUSES = ['NOT_START', 'SUBMITTED', 'MODAL', 'IN_PROGRESS', 'FAILURE', 'SUCCESS'] as const;

/** Unix time in **milliseconds** (the task times are stored in ms); 0 or empty = no bound. */
function millisecondFilter(field: string) {
  return z.coerce
    .number(`${field} must be a Unix time in milliseconds`)
    .int(`${field} must be a whole number of milliseconds`)
    .min(0, `${field} must not be negative`)
    .max(Number.MAX_SAFE_INTEGER, `${field} is too large`)
    .optional();
}

function idFilter(field: string) {
  return z.coerce
    .number(`${field} must be a number`)
    .int(`${field} must be an integer`)
    .min(0, `${field} must not be negative`)
    .max(MAX_INTEGER_COLUMN, `${field} is too large`)
    .optional();
}

const mjIdFilter = z
  .string('mj_id must be a single text value')
  .trim()
  .max(191, 'mj_id must be at most 191 characters')
  .optional();

/**
 * Query of `GET /api/mj/` (admin) and `GET /api/mj/self` (own tasks). `channel_id` is only honoured
 * on the admin list and `token_id` only on the own list; 0 or empty means "no filter".
 */
export const midjourneyListQuery = pageQuery.extend({
  channel_id: idFilter('channel_id'),
  token_id: idFilter('token_id'),
  mj_id: mjIdFilter,
  start_timestamp: millisecondFilter('start_timestamp'),
  end_timestamp: millisecondFilter('end_timestamp'),
});
export type MidjourneyListQuery = z.infer<typeof midjourneyListQuery>;

/** One `midjourneys` row as the listing returns it. Times are Unix milliseconds (0 = not yet). */
export interface MidjourneyTaskView {
  id: number;
  /** The proxy's submit answer code (1 = accepted, 22 = queued). */
  code: number;
  user_id: number;
  /** IMAGINE, UPSCALE, VARIATION, REROLL, DESCRIBE, BLEND, … */
  action: string;
  mj_id: string;
  prompt: string;
  prompt_en: string;
  description: string;
  state: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  image_url: string;
  /**
   * The result picture through the gateway (`/mj/image/<id>?sig=…`, signed for this task, loadable
   * without a key); '' while the task has none.
   */
  image_src: string;
  /** NOT_START, SUBMITTED, MODAL, IN_PROGRESS, FAILURE, SUCCESS (as reported by the proxy). */
  status: string;
  /** e.g. "0%", "100%". */
  progress: string;
  fail_reason: string;
  /** Absent on `/api/mj/self`. */
  channel_id?: number;
  quota: number;
  /** JSON text of the proxy's button list (`[{customId, emoji, label, type, style}]`). */
  buttons: string;
  /** JSON text of the proxy's task properties. */
  properties: string;
  /** fast, turbo or relax. */
  mode: string;
  token_id: number;
}
