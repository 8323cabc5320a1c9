import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Whether a browser request came from this site's own pages. `Sec-Fetch-Site` decides when the
 * browser sends it (every current one does): the browser compares the page's origin with the
 * address it asked for, so a reverse proxy that rewrites Host or ends TLS cannot make it wrong.
 * Without it, `Origin` must name this host as the server sees it (X-Forwarded-Host behind
 * TRUST_PROXY); its scheme is not compared, as TLS often ends at a proxy the server does not
 * trust. A request with neither header is not a browser riding on a cookie.
 */
export function fromThisSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return OWN_FETCH_SITES.has(site.toLowerCase());
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return URL.canParse(origin) && new URL(origin).host === request.host.toLowerCase();
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
    if (!fromThisSite(request)) {
      done(AppError.forbidden('this request came from another site (Sec-Fetch-Site or Origin); it is refused'));
      return;
    }
    done();
  });
}
