import { taskListQuery } from '@one-hub/contracts';
import type { ResourceOperations } from '../openapi/operation.js';

export const taskOperations: ResourceOperations = {
  tag: 'Tasks',
  description: 'Asynchronous tasks (Suno, Kling, …).',
  operations: [
    { method: 'get', path: '/api/task/', summary: 'List tasks', access: 'admin', query: taskListQuery, paged: true },
    {
      method: 'get',
      path: '/api/task/self',
      summary: 'List the caller’s tasks',
      access: 'user',
      query: taskListQuery,
      paged: true,
    },
  ],
};
