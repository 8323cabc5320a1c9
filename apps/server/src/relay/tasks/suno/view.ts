import { TASK_STATUSES } from '@one-hub/contracts';
import { parsedColumn, type TaskState, taskState } from '../../../domain/task-rows.js';
import { objectOf, textOf } from '../body.js';
import type { TaskRow, TaskUpdate } from '../task-repo.js';

/** A task as `/suno/fetch` answers it (reference §4.15); `data` is the Suno-API's clip data. */
export interface SunoTaskDto extends TaskState {
  task_id: string;
  progress: string;
  data: unknown;
}

export function toSunoDto(row: TaskRow): SunoTaskDto {
  return {
    task_id: row.task_id,
    ...taskState(row),
    progress: `${Number(row.progress)}%`,
    data: parsedColumn(row.data),
  };
}

const KNOWN_STATUSES = new Set<string>(TASK_STATUSES);

/** "42%" → 42, clamped to 0–100; anything else keeps the row's. */
function progressOf(value: unknown, fallback: number): number {
  const number = Number.parseInt(textOf(value), 10);
  return Number.isFinite(number) ? Math.min(100, Math.max(0, number)) : fallback;
}

function secondsOf(value: unknown, fallback: number): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) return fallback;
  // Some deployments report milliseconds.
  return number > 1e11 ? Math.floor(number / 1000) : Math.floor(number);
}

/** What a Suno-API fetch item says about a row, as an update of its columns. */
export function updateFromSuno(row: TaskRow, reported: unknown, now: number): TaskUpdate {
  const item = objectOf(reported);
  const rawStatus = textOf(item.status).toUpperCase();
  const status = KNOWN_STATUSES.has(rawStatus) ? rawStatus : rawStatus === '' ? row.status : 'UNKNOWN';
  const finished = status === 'SUCCESS' || status === 'FAILURE';
  const started = finished || status === 'IN_PROGRESS';
  const update: TaskUpdate = {
    status,
    fail_reason: textOf(item.fail_reason) || row.fail_reason,
    progress: status === 'SUCCESS' ? 100 : progressOf(item.progress, Number(row.progress)),
    start_time: secondsOf(item.start_time, Number(row.start_time) || (started ? now : 0)),
    finish_time: secondsOf(item.finish_time, Number(row.finish_time) || (finished ? now : 0)),
  };
  if (item.data !== undefined) update.data = JSON.stringify(item.data);
  return update;
}
