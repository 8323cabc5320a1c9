import type { FastifyReply } from 'fastify';
import { nowSeconds } from '../platform/clock.js';
import { hmacBase64Url, safeEqual } from '../platform/crypto.js';

/**
 * Stateless signed session cookie. It carries the user id, an expiry and a fingerprint of the
 * password hash, so changing the password signs out every other session without a session table.
 */
export const SESSION_COOKIE = 'session';
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

interface SessionPayload {
  uid: number;
  exp: number;
  pv: string;
}

export interface SessionCodec {
  issue(reply: FastifyReply, user: { id: number; password: string }): void;
  clear(reply: FastifyReply): void;
  /** The user id a valid cookie names, with the fingerprint to check against the current hash. */
  read(cookie: string | undefined): SessionPayload | null;
  matchesPassword(session: SessionPayload, passwordHash: string): boolean;
}

export function createSessionCodec(secret: string): SessionCodec {
  const fingerprint = (passwordHash: string) => hmacBase64Url(secret, `pv:${passwordHash}`).slice(0, 16);
  const sign = (body: string) => hmacBase64Url(secret, `session:${body}`);

  return {
    issue(reply, user) {
      const payload: SessionPayload = {
        uid: user.id,
        exp: nowSeconds() + SESSION_MAX_AGE_SECONDS,
        pv: fingerprint(user.password),
      };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      reply.setCookie(SESSION_COOKIE, `${body}.${sign(body)}`, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: 'auto',
        maxAge: SESSION_MAX_AGE_SECONDS,
      });
    },
    clear(reply) {
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict' });
    },
    read(cookie) {
      if (!cookie) return null;
      const [body, signature] = cookie.split('.');
      if (!body || !signature || !safeEqual(signature, sign(body))) return null;
      try {
        const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SessionPayload;
        if (!Number.isInteger(payload.uid) || typeof payload.pv !== 'string') return null;
        return payload.exp > nowSeconds() ? payload : null;
      } catch {
        return null;
      }
    },
    matchesPassword(session, passwordHash) {
      return safeEqual(session.pv, fingerprint(passwordHash));
    },
  };
}
