import { type AsyncTaskView, taskListQuery } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { parsedColumn, taskState } from '../../domain/task-rows.js';
import type { Auth } from '../../http/auth.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { taskListRoutes } from './list-routes.js';
import { listTasks, type TaskListRow } from './repo.js';

/** Suno music clips carry the Suno account's user id; a user's own list must not show it (§1.17). */
export function withoutUserIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUserIds);
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) if (key !== 'user_id') copy[key] = withoutUserIds(entry);
    return copy;
  }
  return value;
}

/** A row as the console reads it; the own list leaves out which channel ran the task. */
export function presentTask(row: TaskListRow, withChannel: boolean): AsyncTaskView {
  const data = parsedColumn(row.data);
  const view: AsyncTaskView = {
    id: Number(row.id),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    task_id: row.task_id,
    platform: row.platform,
    user_id: Number(row.user_id),
    quota: Number(row.quota),
    ...taskState(row),
    progress: Number(row.progress),
    properties: parsedColumn(row.properties),
    data: !withChannel && row.platform === 'suno' && row.action === 'MUSIC' ? withoutUserIds(data) : data,
    token_id: Number(row.token_id),
  };
  if (row.notify_hook) view.notify_hook = row.notify_hook;
  return withChannel ? { ...view, channel_id: Number(row.channel_id) } : view;
}

/** `GET /api/task/` and `GET /api/task/self` (list-routes.ts). */
export function taskRoutes(app: FastifyInstance, deps: { auth: Auth; database: DatabaseHandle }): void {
  taskListRoutes(app, deps, { path: '/api/task', query: taskListQuery, list: listTasks, present: presentTask });
}
