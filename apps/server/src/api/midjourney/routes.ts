import { type MidjourneyTaskView, midjourneyListQuery, type Paged } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { type LinkSigner, signedMjImagePath } from '../../platform/signed-links.js';
import { UserRepository } from '../user/repo.js';
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

function present(page: Paged<MidjourneyListRow>, withChannel: boolean, links: LinkSigner): Paged<MidjourneyTaskView> {
  return { ...page, data: page.data.map((row) => presentMidjourney(row, withChannel, links)) };
}

/** `GET /api/mj/` (administrators: every task of theirs and of the users they outrank) and `GET /api/mj/self` (the user's own tasks). */
export function midjourneyRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; database: DatabaseHandle; links: LinkSigner },
): void {
  const { auth, database, links } = deps;
  const users = new UserRepository(database);
  app.get('/api/mj/', { onRequest: auth.requireAdmin }, async (request) => {
    const query = parseInput(midjourneyListQuery, request.query, 'query');
    const hiddenUserIds = await users.idsNotOutrankedBy(currentUser(request));
    return ok(present(await listMidjourneys(database, { admin: true, hiddenUserIds }, query), true, links));
  });
  app.get('/api/mj/self', { onRequest: auth.requireUser }, async (request) => {
    const query = parseInput(midjourneyListQuery, request.query, 'query');
    const userId = currentUser(request).id;
    return ok(present(await listMidjourneys(database, { admin: false, userId }, query), false, links));
  });
}
