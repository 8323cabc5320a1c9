import type { AsyncTaskView, Paged } from '@one-hub/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../lib/api.js';
import { taskQuery } from './useTaskListParams.js';

export type { TaskFilters, TaskListParams } from './taskParams.js';

import type { TaskListParams } from './taskParams.js';

export const taskKeys = {
  all: ['task'] as const,
  list: (admin: boolean, params: TaskListParams) => ['task', 'list', admin, params] as const,
};

/** Everyone's tasks (`GET /api/task/`) for administrators, the caller's own (`GET /api/task/self`) otherwise. */
export function useTasks(admin: boolean, params: TaskListParams) {
  return useQuery({
    queryKey: taskKeys.list(admin, params),
    queryFn: () =>
      api.get<Paged<AsyncTaskView>>(withQuery(admin ? '/api/task/' : '/api/task/self', taskQuery(params, admin))),
    placeholderData: keepPreviousData,
  });
}
