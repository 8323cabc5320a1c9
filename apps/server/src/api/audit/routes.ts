import { auditListQuery } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { AuditService } from './service.js';

/** The audit log: every change made through the management API; root reads all, an admin its own. */
export function auditRoutes(app: FastifyInstance, deps: { auth: Auth; audit: AuditService }): void {
  const { auth, audit } = deps;
  app.get('/api/audit/', { onRequest: auth.requireAdmin }, async (request) =>
    ok(await audit.list(currentUser(request), parseInput(auditListQuery, request.query, 'query'))),
  );
}
