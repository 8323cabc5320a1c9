import { fromDateInput, toDateInput } from '../../lib/listState.js';
import type { TaskFilters } from './task.api.js';

/** The filter inputs' text; the time bounds as `datetime-local` values. */
export function taskDraft(filters: TaskFilters): Record<string, string> {
  const { start_timestamp, end_timestamp, ...rest } = filters;
  return { ...rest, start: toDateInput(start_timestamp), end: toDateInput(end_timestamp) };
}

/** The filters of the inputs' text, trimmed; empty times are no bound. */
export function taskFromDraft(draft: Record<string, string>): TaskFilters {
  const value = (key: string) => (draft[key] ?? '').trim();
  return {
    platform: value('platform'),
    channel_id: value('channel_id'),
    user_id: value('user_id'),
    task_id: value('task_id'),
    action: value('action'),
    status: value('status'),
    start_timestamp: fromDateInput(value('start')),
    end_timestamp: fromDateInput(value('end')),
  };
}
