import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignedCookie } from '../../../http/signed-cookie.js';
import { randomString, safeEqual } from '../../../platform/crypto.js';
import { AppError } from '../../../platform/errors.js';

const STATE_TTL_SECONDS = 10 * 60;

interface StatePayload {
  state: string;
  nonce?: string;
}

/**
 * The OAuth `state` (and the OIDC `nonce`) of a sign-in in progress, kept in a short-lived signed
 * cookie instead of a server session. A callback whose `state` does not match the cookie did not
 * start in this browser, so it is refused: that stops login CSRF.
 */
export class OAuthStateCookie {
  private readonly cookie: SignedCookie<StatePayload>;

  constructor(secret: string) {
    // Lax: the cookie must survive the provider's redirect back to the console.
    this.cookie = new SignedCookie(secret, 'oauth_state', STATE_TTL_SECONDS, { sameSite: 'lax' });
  }

  issue(reply: FastifyReply, options: { nonce?: boolean } = {}): StatePayload {
    const payload: StatePayload = { state: randomString(12), ...(options.nonce ? { nonce: randomString(32) } : {}) };
    this.cookie.write(reply, payload);
    return payload;
  }

  /** The stored sign-in data when `state` matches; otherwise a 403. */
  check(request: FastifyRequest, state: string | undefined): StatePayload {
    const stored = this.cookie.read(request);
    if (!state || !stored || typeof stored.state !== 'string' || !safeEqual(stored.state, state)) {
      throw AppError.forbidden(
        'state is empty or not the same as the one this browser was given; start the sign-in again',
      );
    }
    return stored;
  }
}
