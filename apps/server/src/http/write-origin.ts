import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CROSS_FETCH_SITES = new Set(['cross-site', 'same-site']);

/** The request's own origin as the server sees it (scheme and host, behind TRUST_PROXY too). */
function ownOrigin(request: FastifyRequest): string | undefined {
  const own = `${request.protocol}://${request.host}`;
  return URL.canParse(own) ? new URL(own).origin : undefined;
}

/** Whether `origin` (an Origin header) is this request's own origin. */
export function sameOrigin(origin: string, request: FastifyRequest): boolean {
  return URL.canParse(origin) && new URL(origin).origin === ownOrigin(request);
}

/**
 * A write under /api that rides on the session cookie must come from this site's own pages: a
 * browser names where a request came from in `Origin` and `Sec-Fetch-Site`, and another site's
 * page cannot hide either. Scripts that send an access token in Authorization are not browsers
 * riding on a cookie and are not checked. Install after the cookie plugin.
 */
export function installWriteOriginCheck(app: FastifyInstance, sessionCookie: string): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (
      !WRITE_METHODS.has(request.method) ||
      !request.url.startsWith('/api/') ||
      request.cookies[sessionCookie] === undefined ||
      request.headers.authorization !== undefined
    ) {
      done();
      return;
    }
    const site = request.headers['sec-fetch-site'];
    if (typeof site === 'string' && CROSS_FETCH_SITES.has(site.toLowerCase())) {
      done(AppError.forbidden(`this request came from another site (Sec-Fetch-Site: ${site}); it is refused`));
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, request)) {
      done(
        AppError.forbidden('this request came from another origin (Origin does not match this site); it is refused'),
      );
      return;
    }
    done();
  });
}
