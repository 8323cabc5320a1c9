import { TASK_PLATFORMS, TASK_SORT_FIELDS, TASK_STATUSES } from '@one-hub/contracts';
import { listSearch, parsePaging, wholeNumber } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { TaskFilters, TaskListParams } from './taskParams.js';

export const emptyTaskFilters: TaskFilters = {
  platform: '',
  channel_id: '',
  user_id: '',
  task_id: '',
  action: '',
  status: '',
  start_timestamp: 0,
  end_timestamp: 0,
};

const oneOf = (value: string | null, choices: readonly string[]) => (value && choices.includes(value) ? value : '');
const idText = (value: string | null) => {
  const id = wholeNumber(value, 1);
  return id === null ? '' : String(id);
};

/** Reads the list state from the query string, dropping values the server would refuse. */
export function parseTaskListParams(search: URLSearchParams): TaskListParams {
  return {
    platform: oneOf(search.get('platform'), TASK_PLATFORMS),
    channel_id: idText(search.get('channel_id')),
    user_id: idText(search.get('user_id')),
    task_id: search.get('task_id')?.trim().slice(0, 50) ?? '',
    action: search.get('action')?.trim().slice(0, 40) ?? '',
    status: oneOf(search.get('status'), TASK_STATUSES),
    start_timestamp: wholeNumber(search.get('start_timestamp'), 0) ?? 0,
    end_timestamp: wholeNumber(search.get('end_timestamp'), 0) ?? 0,
    ...parsePaging(search, TASK_SORT_FIELDS),
  };
}

/** The async task list state kept in the URL; changing anything but the page goes back to page 1. */
export function useTaskListParams(): [TaskListParams, (changes: Partial<TaskListParams>) => void] {
  return useUrlListParams(parseTaskListParams, listSearch);
}

/** The query string of a list request; 0 and '' are left out, the administrators' filters only for them. */
export function taskQuery(params: TaskListParams, admin: boolean) {
  const { channel_id, user_id, start_timestamp, end_timestamp, ...rest } = params;
  return {
    ...rest,
    start_timestamp: start_timestamp || undefined,
    end_timestamp: end_timestamp || undefined,
    ...(admin ? { channel_id, user_id } : {}),
  };
}
