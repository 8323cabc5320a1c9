import type { FastifyReply, FastifyRequest } from 'fastify';
import { hmacBase64Url, safeEqual } from '../platform/crypto.js';
import { SignedCookie } from './signed-cookie.js';

/**
 * Stateless signed session cookie (a `SignedCookie` under the label `session`). It carries the user id, an expiry, the user's session
 * generation and a fingerprint of the password hash. Signing out, changing or resetting the
 * password bumps the generation, which ends every session of that user without a session table.
 */
export const SESSION_COOKIE = 'session';
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

/** COOKIE_SECURE: `auto` marks the cookie Secure when the request arrived over https as the server sees it. */
export type CookieSecureMode = 'auto' | 'true' | 'false';

export interface SessionPayload {
  uid: number;
  exp: number;
  pv: string;
  /** Session generation; cookies issued before generations existed lack it and count as 0. */
  gen?: number;
}

export interface SessionUser {
  id: number;
  password: string;
  session_generation: number;
}

export interface SessionCodec {
  issue(reply: FastifyReply, user: SessionUser): void;
  clear(reply: FastifyReply): void;
  /** The payload of a validly signed, unexpired cookie; still to be checked against the user row. */
  read(cookie: string | undefined): SessionPayload | null;
  /** True when the session was issued for the user's current password and session generation. */
  isCurrent(session: SessionPayload, user: SessionUser): boolean;
}

export interface SessionOptions {
  cookieSecure?: CookieSecureMode;
}

export function createSessionCodec(secret: string, options: SessionOptions = {}): SessionCodec {
  const fingerprint = (passwordHash: string) => hmacBase64Url(secret, `pv:${passwordHash}`).slice(0, 16);
  const cookie = new SignedCookie<Omit<SessionPayload, 'exp'>>(secret, SESSION_COOKIE, SESSION_MAX_AGE_SECONDS, {
    label: 'session',
    sameSite: 'strict',
    secure: secureFlag(options.cookieSecure ?? 'auto'),
  });

  return {
    issue(reply, user) {
      cookie.write(reply, { uid: user.id, pv: fingerprint(user.password), gen: user.session_generation });
    },
    clear(reply) {
      cookie.clear(reply);
    },
    read(value) {
      const payload = cookie.open(value);
      if (!payload || !Number.isInteger(payload.uid) || typeof payload.pv !== 'string') return null;
      if (payload.gen !== undefined && !Number.isInteger(payload.gen)) return null;
      return payload;
    },
    isCurrent(session, user) {
      return (
        (session.gen ?? 0) === Number(user.session_generation) && safeEqual(session.pv, fingerprint(user.password))
      );
    },
  };
}

/**
 * Whether a cookie set in answer to this request is Secure. In `auto` mode a request that says it
 * came over https (X-Forwarded-Proto) while the server does not trust the proxy gets a plain cookie:
 * that is worth one warning, since the fix is TRUST_PROXY or COOKIE_SECURE=true.
 */
function secureFlag(mode: CookieSecureMode): (request: FastifyRequest) => boolean {
  if (mode !== 'auto') return () => mode === 'true';
  let warned = false;
  return (request) => {
    if (request.protocol === 'https') return true;
    if (!warned && forwardedProto(request) === 'https') {
      warned = true;
      request.log.warn(
        'a request arrived with X-Forwarded-Proto: https, but the proxy is not trusted, so the session cookie is not marked Secure: set TRUST_PROXY to the proxy address, or COOKIE_SECURE=true',
      );
    }
    return false;
  };
}

function forwardedProto(request: FastifyRequest): string | undefined {
  const header = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0];
  return first?.trim().toLowerCase();
}
