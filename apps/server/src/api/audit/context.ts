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

/** /api handlers running in a scope now; when the last ends, the storage is switched off. */
let scopedHandlers = 0;

/** How many /api handlers run in an audit scope now (the async hooks are on only while any does). */
export function auditScopesOpen(): number {
  return scopedHandlers;
}

function leaveScope(): void {
  scopedHandlers--;
  // An AsyncLocalStorage in use installs promise hooks that run on every promise the process makes,
  // the relay's included (about 20 µs of CPU per relay request, BENCHMARKS.md). Off while no /api
  // handler runs; the next scope's run() switches it on again.
  if (scopedHandlers === 0) scopes.disable();
}

/**
 * The scope of the management-API request the current code runs for; undefined outside one (jobs,
 * the relay, the Telegram bot), whose changes are not the management API's and are not recorded.
 */
export function currentAuditScope(): AuditScope | undefined {
  return scopes.getStore();
}

/** Runs `work` as if a request of `scope` made it (tests, and callers outside Fastify), until what it returns settles. */
export function runInAuditScope<T>(scope: AuditScope, work: () => T): T {
  scopedHandlers++;
  let result: T;
  try {
    result = scopes.run(scope, work);
  } catch (error) {
    leaveScope();
    throw error;
  }
  if (!(result instanceof Promise)) {
    leaveScope();
    return result;
  }
  return result.finally(leaveScope) as T;
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
 * handing it down. Each route's handler is wrapped as it is declared (onRoute, before the routes), so
 * the scope lasts exactly as long as the handler: the body has been read and the route's own
 * preHandlers (which set `request.user`) have run; a client that goes away does not end it early.
 */
export function installAuditScope(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function auditScoped(this: FastifyInstance, request, reply) {
      return runInAuditScope(scopeOf(request), () => handler.call(this, request, reply));
    };
  });
}
