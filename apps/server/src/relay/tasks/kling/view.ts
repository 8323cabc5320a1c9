import { parseJsonObject } from '@one-hub/contracts';
import { objectOf, textOf } from '../body.js';
import type { TaskRow, TaskUpdate } from '../task-repo.js';

/**
 * Kling's task states and the stored ones: submitted → SUBMITTED, processing → IN_PROGRESS,
 * succeed → SUCCESS, failed → FAILURE. The row's `data` keeps Kling's last `data` object.
 */

const TO_STATUS: Record<string, string> = {
  submitted: 'SUBMITTED',
  processing: 'IN_PROGRESS',
  succeed: 'SUCCESS',
  failed: 'FAILURE',
};
const FROM_STATUS: Record<string, string> = {
  NOT_START: 'submitted',
  SUBMITTED: 'submitted',
  QUEUED: 'submitted',
  IN_PROGRESS: 'processing',
  SUCCESS: 'succeed',
  FAILURE: 'failed',
};
/** Kling reports no percentage: a stage's share is shown instead. */
const PROGRESS: Record<string, number> = { SUBMITTED: 10, IN_PROGRESS: 50, SUCCESS: 100, FAILURE: 100 };

export function updateFromKling(row: TaskRow, reported: unknown, now: number): TaskUpdate {
  const data = objectOf(reported);
  const status = TO_STATUS[textOf(data.task_status)] ?? row.status;
  const finished = status === 'SUCCESS' || status === 'FAILURE';
  return {
    status,
    progress: PROGRESS[status] ?? Number(row.progress),
    fail_reason: status === 'FAILURE' ? textOf(data.task_status_msg) || row.fail_reason : row.fail_reason,
    start_time: Number(row.start_time) || (status === 'IN_PROGRESS' || finished ? now : 0),
    finish_time: Number(row.finish_time) || (finished ? now : 0),
    data: JSON.stringify(data),
  };
}

function storedData(row: TaskRow): Record<string, unknown> {
  return parseJsonObject(row.data) ?? {};
}

/** A row in Kling's answer shape: `{code:0, message, request_id, data:{task_id, task_status…}}`. */
export function toKlingAnswer(row: TaskRow, requestId: string) {
  const data = storedData(row);
  return {
    code: 0,
    message: 'SUCCEED',
    request_id: requestId,
    data: {
      ...data,
      task_id: row.task_id,
      task_status: FROM_STATUS[row.status] ?? 'submitted',
      task_status_msg: row.status === 'FAILURE' ? row.fail_reason : textOf(data.task_status_msg),
      created_at: Number(data.created_at) || Number(row.submit_time) * 1000,
      updated_at: Number(data.updated_at) || Number(row.updated_at) * 1000,
    },
  };
}
