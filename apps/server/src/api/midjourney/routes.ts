import { type MidjourneyTaskView, midjourneyListQuery } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { type LinkSigner, signedMjImagePath } from '../../platform/signed-links.js';
import { taskListRoutes } from '../task/list-routes.js';
import { listMidjourneys, type MidjourneyListRow } from './repo.js';

/** A row as the console reads it; the own list leaves out which channel ran the task. */
export function presentMidjourney(row: MidjourneyListRow, withChannel: boolean, links: LinkSigner): MidjourneyTaskView {
  const view: MidjourneyTaskView = {
    id: Number(row.id),
    code: Number(row.code),
    user_id: Number(row.user_id),
    action: row.action,
    mj_id: row.mj_id,
    prompt: row.prompt,
    prompt_en: row.prompt_en,
    description: row.description,
    state: row.state,
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    image_url: row.image_url,
    image_src: row.image_url ? signedMjImagePath(links, row.mj_id) : '',
    status: row.status,
    progress: row.progress,
    fail_reason: row.fail_reason,
    quota: Number(row.quota),
    buttons: row.buttons,
    properties: row.properties,
    mode: row.mode,
    token_id: Number(row.token_id),
  };
  return withChannel ? { ...view, channel_id: Number(row.channel_id) } : view;
}

/** `GET /api/mj/` and `GET /api/mj/self` (api/task/list-routes.ts). */
export function midjourneyRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; database: DatabaseHandle; links: LinkSigner },
): void {
  taskListRoutes(app, deps, {
    path: '/api/mj',
    query: midjourneyListQuery,
    list: listMidjourneys,
    present: (row, withChannel) => presentMidjourney(row, withChannel, deps.links),
  });
}
