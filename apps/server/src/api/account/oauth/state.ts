import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignedCookie } from '../../../http/signed-cookie.js';
import { randomString, safeEqual } from '../../../platform/crypto.js';
import { AppError } from '../../../platform/errors.js';

const STATE_TTL_SECONDS = 10 * 60;

export interface StatePayload {
  state: string;
  /** Always issued: an OIDC sign-in may start here too (a console that builds the URL itself). */
  nonce: string;
  /** The PKCE code verifier, only when the server built the authorization URL with its challenge. */
  verifier?: string;
}

/** The S256 code challenge of a PKCE verifier (RFC 7636 §4.2). */
export const codeChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * The OAuth `state` (and the OIDC `nonce`) of a sign-in in progress, kept in a short-lived signed
 * cookie instead of a server session. A callback whose `state` does not match the cookie did not
 * start in this browser, so it is refused: that stops login CSRF. Every state carries a nonce,
 * whichever endpoint issued it, so an OIDC ID token is always bound to this sign-in.
 */
export class OAuthStateCookie {
  private readonly cookie: SignedCookie<StatePayload>;

  constructor(secret: string) {
    // Lax: the cookie must survive the provider's redirect back to the console.
    this.cookie = new SignedCookie(secret, 'oauth_state', STATE_TTL_SECONDS, { sameSite: 'lax' });
  }

  issue(reply: FastifyReply, options: { pkce?: boolean } = {}): StatePayload {
    const payload: StatePayload = {
      state: randomString(12),
      nonce: randomString(32),
      // 32 random bytes give the 43-character verifier RFC 7636 recommends.
      ...(options.pkce ? { verifier: randomBytes(32).toString('base64url') } : {}),
    };
    this.cookie.write(reply, payload);
    return payload;
  }

  /** The stored sign-in data when `state` matches; otherwise a 403 (a cookie without a nonce included). */
  check(request: FastifyRequest, state: string | undefined): StatePayload {
    const stored = this.cookie.read(request);
    const valid = stored && typeof stored.state === 'string' && typeof stored.nonce === 'string' && stored.nonce;
    if (!state || !valid || !safeEqual(stored.state, state)) {
      throw AppError.forbidden(
        'state is empty or not the same as the one this browser was given; start the sign-in again',
      );
    }
    return stored;
  }
}
