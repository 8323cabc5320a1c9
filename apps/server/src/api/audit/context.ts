import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
// The declaration of `request.user` (auth.ts), for programs that reach this file without the guards.
import type {} from '../../http/auth.js';
import { requestIdOf } from '../../http/request-id.js';

/** Who made a change, and from where: what every audit row records besides the change itself. */
export interface AuditScope {
  /** The signed-in caller; undefined when the route has none (nothing is recorded then). */
  actor(): { id: number; username: string; role: number } | undefined;
  ip: string;
  requestId: string;
}

const scopes = new AsyncLocalStorage<AuditScope>();

/**
 * The scope of the management-API request the current code runs for; undefined outside one (jobs,
 * the relay, the Telegram bot), whose changes are not the management API's and are not recorded.
 */
export function currentAuditScope(): AuditScope | undefined {
  return scopes.getStore();
}

/** Runs `work` as if a request of `scope` made it (tests, and callers outside Fastify). */
export function runInAuditScope<T>(scope: AuditScope, work: () => T): T {
  return scopes.run(scope, work);
}

function scopeOf(request: FastifyRequest): AuditScope {
  return {
    // Read when a row is written: the route's own preHandler (optionalUser) may set the user after this hook.
    actor: () => {
      const user = request.user;
      return user ? { id: user.id, username: user.username, role: user.role } : undefined;
    },
    ip: request.ip,
    requestId: requestIdOf(request.raw),
  };
}

/**
 * Gives every /api handler its audit scope, so a service records who changed what without each route
 * handing it down. A preHandler, not onRequest: it runs after the body is read (whose stream events
 * would lose the async context) and calls the handler from inside `run`.
 */
export function installAuditScope(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    scopes.run(scopeOf(request), done);
  });
}
