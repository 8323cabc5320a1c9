import type { Paged } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { UserRepository } from '../user/repo.js';
import type { TaskListScope } from './scope.js';

/** One of the console's task lists (`tasks` at /api/task, `midjourneys` at /api/mj). */
export interface TaskList<Schema extends z.ZodType, Row, View> {
  /** `/api/task`: the administrators' list at `<path>/`, the user's own at `<path>/self`. */
  path: string;
  query: Schema;
  list(database: DatabaseHandle, scope: TaskListScope, query: z.output<Schema>): Promise<Paged<Row>>;
  /** A row as the console reads it; the own list leaves out which channel ran the task. */
  present(row: Row, withChannel: boolean): View;
}

/**
 * `GET <path>/` (administrators: every task of theirs and of the users they outrank) and
 * `GET <path>/self` (the user's own tasks).
 */
export function taskListRoutes<Schema extends z.ZodType, Row, View>(
  app: FastifyInstance,
  deps: { auth: Auth; database: DatabaseHandle },
  taskList: TaskList<Schema, Row, View>,
): void {
  const { auth, database } = deps;
  const users = new UserRepository(database);
  const present = (page: Paged<Row>, withChannel: boolean): Paged<View> => ({
    ...page,
    data: page.data.map((row) => taskList.present(row, withChannel)),
  });
  app.get(`${taskList.path}/`, { onRequest: auth.requireAdmin }, async (request) => {
    const query = parseInput(taskList.query, request.query, 'query');
    const hiddenUserIds = await users.idsNotOutrankedBy(currentUser(request));
    return ok(present(await taskList.list(database, { admin: true, hiddenUserIds }, query), true));
  });
  // The router ignores trailing slashes, so `<path>/self/` lands here too.
  app.get(`${taskList.path}/self`, { onRequest: auth.requireUser }, async (request) => {
    const query = parseInput(taskList.query, request.query, 'query');
    const userId = currentUser(request).id;
    return ok(present(await taskList.list(database, { admin: false, userId }, query), false));
  });
}
