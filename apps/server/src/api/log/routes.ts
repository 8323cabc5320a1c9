import {
  deleteLogsQuery,
  logExportQuery,
  logListQuery,
  logStatQuery,
  ownLogExportQuery,
  ownLogListQuery,
  ownLogStatQuery,
} from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import { sendExport } from '../../http/export-stream.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { LogService } from './service.js';

/** Log lists and statistics: root sees everything, an admin the logs of the users it outranks, everyone their own. */
export function logRoutes(app: FastifyInstance, deps: { auth: Auth; logs: LogService }): void {
  const { auth, logs } = deps;
  const admin = { onRequest: auth.requireAdmin };
  const signedIn = { onRequest: auth.requireUser };

  app.get('/api/log/', admin, async (request) =>
    ok(await logs.list(currentUser(request), parseInput(logListQuery, request.query, 'query'))),
  );

  app.get('/api/log/self', signedIn, async (request) =>
    ok(await logs.listOwn(currentUser(request), parseInput(ownLogListQuery, request.query, 'query'))),
  );

  // Every row the list would show under the same filters, streamed as CSV or JSON lines.
  app.get('/api/log/export', admin, async (request, reply) => {
    const query = parseInput(logExportQuery, request.query, 'query');
    await sendExport(reply, query.format, logs.exportAll(currentUser(request), query));
  });

  app.get('/api/log/self/export', signedIn, async (request, reply) => {
    const query = parseInput(ownLogExportQuery, request.query, 'query');
    await sendExport(reply, query.format, logs.exportOwn(currentUser(request), query));
  });

  app.get('/api/log/stat', admin, async (request) =>
    ok(await logs.stat(currentUser(request), parseInput(logStatQuery, request.query, 'query'))),
  );

  app.get('/api/log/self/stat', signedIn, async (request) =>
    ok(await logs.ownStat(currentUser(request), parseInput(ownLogStatQuery, request.query, 'query'))),
  );

  app.delete('/api/log/', admin, async (request) => {
    const { target_timestamp: target } = parseInput(deleteLogsQuery, request.query, 'query');
    return ok(await logs.deleteConsumeLogsBefore(target));
  });
}
