import type { FastifyInstance, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { Auth } from './auth.js';

const asList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Routes declare their guard as `preHandler: auth.requireUser` (or admin, root); this moves those
 * guards to the route's `onRequest`, which runs before the body is read. An anonymous caller is
 * refused from the cookie and headers alone, before the server reads or parses anything it sent.
 * Guards use only the cookie and the Authorization header. Call before any route is declared.
 */
export function runGuardsBeforeBody(app: FastifyInstance, auth: Auth): void {
  const guards = new Set<unknown>([auth.requireUser, auth.requireAdmin, auth.requireRoot]);
  app.addHook('onRoute', (route) => {
    const preHandlers = asList(route.preHandler as preHandlerHookHandler | preHandlerHookHandler[] | undefined);
    const moved = preHandlers.filter((hook) => guards.has(hook));
    if (moved.length === 0) return;
    route.preHandler = preHandlers.filter((hook) => !guards.has(hook));
    const onRequest = asList(route.onRequest as onRequestHookHandler | onRequestHookHandler[] | undefined);
    route.onRequest = [...onRequest, ...(moved as unknown as onRequestHookHandler[])];
  });
}
