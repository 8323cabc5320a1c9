import { auditExportQuery, auditListQuery } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import { sendExport } from '../../http/export-stream.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { AuditService } from './service.js';

/** The audit log: every change made through the management API; root reads all, an admin its own. */
export function auditRoutes(app: FastifyInstance, deps: { auth: Auth; audit: AuditService }): void {
  const { auth, audit } = deps;
  const admin = { onRequest: auth.requireAdmin };
  app.get('/api/audit/', admin, async (request) =>
    ok(await audit.list(currentUser(request), parseInput(auditListQuery, request.query, 'query'))),
  );

  // Every row the list would show under the same filters, streamed as CSV or JSON lines.
  app.get('/api/audit/export', admin, async (request, reply) => {
    const query = parseInput(auditExportQuery, request.query, 'query');
    await sendExport(reply, query.format, audit.exportRows(currentUser(request), query));
  });
}
