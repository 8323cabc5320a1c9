import { parseJson } from '@one-hub/contracts';
import type { Selectable } from 'kysely';
import type { TasksTable } from '../platform/db/index.js';

/** A JSON column of a task row as One Hub serialises it: parsed, null when empty or unreadable. */
export function parsedColumn(text: string): unknown {
  return text ? (parseJson(text) ?? null) : null;
}

type StateColumns = 'action' | 'status' | 'fail_reason' | 'submit_time' | 'start_time' | 'finish_time';

/**
 * Where a Suno or Kling task stands, as the console's task list and the vendors' fetch answers
 * both show it; the times are numbers whatever the database driver hands back.
 */
export function taskState(row: Pick<Selectable<TasksTable>, StateColumns>) {
  return {
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
  };
}

export type TaskState = ReturnType<typeof taskState>;
