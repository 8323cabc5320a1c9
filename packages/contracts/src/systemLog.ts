import { z } from 'zod';

/** `POST /api/system_info/log`: how many of the most recent server log lines to return. */
export const systemLogBody = z.object({
  count: z
    .number('count must be a number')
    .int('count must be a whole number')
    .positive('count must be greater than 0')
    .max(Number.MAX_SAFE_INTEGER, 'count is too large'),
});
export type SystemLogBody = z.infer<typeof systemLogBody>;

/** One server log line as the reference's log viewer reads it (Go field names, ISO 8601 time). */
export interface SystemLogEntry {
  Timestamp: string;
  Level: string;
  Message: string;
}
