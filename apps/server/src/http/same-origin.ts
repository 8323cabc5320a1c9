import type { FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';
import { fromThisSite } from './write-origin.js';

/**
 * For the few GET routes that change state and stay only because the reference's console calls
 * them (sign-out, a new access token, the playground key): the request must come from this site's
 * own pages. A browser names a cross-site request in `Sec-Fetch-Site` and `Origin`; scripts that
 * send neither are not browsers riding on a cookie. The console itself uses POST.
 */
export function assertSameOriginGet(request: FastifyRequest): void {
  if (!fromThisSite(request)) {
    throw AppError.forbidden(
      `this request came from another site (Sec-Fetch-Site or Origin); use POST ${request.routeOptions.url} from this site`,
    );
  }
}
