import { UserStatus } from '@one-hub/contracts';
import type { FastifyReply, onRequestAsyncHookHandler } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { SignedCookie } from '../../http/signed-cookie.js';
import type { UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';

/** How long a password check lets the browser add passkeys. */
export const PASSWORD_CHECK_TTL_SECONDS = 10 * 60;
/** The code of the 403 that tells the console to ask for the password and try again. */
export const PASSWORD_CHECK_REQUIRED = 'password_check_required';

interface PasswordCheckPayload {
  uid: number;
  /** The session generation it was made under: signing out or a password change voids it. */
  gen: number;
}

/**
 * Adding a passkey gives a lasting way in that outlives the password, so it needs more than a
 * caller: a browser session (an access token may have leaked, and cannot add one) whose user typed
 * the password in the last ten minutes. That proof is a short-lived signed cookie beside the session,
 * bound to the user and the session generation.
 */
export class PasskeyEnrolmentGuard {
  private readonly cookie: SignedCookie<PasswordCheckPayload>;

  constructor(
    secret: string,
    private readonly auth: Auth,
  ) {
    this.cookie = new SignedCookie(secret, 'password_check', PASSWORD_CHECK_TTL_SECONDS, { label: 'password-check' });
  }

  /** Route guard: the session user, never an access token's, enabled. */
  readonly sessionOnly: onRequestAsyncHookHandler = async (request) => {
    const user = await this.auth.sessionUser(request);
    if (!user) {
      if (request.headers.authorization) {
        throw AppError.forbidden('passkeys are added from a signed-in browser session; an access token cannot add one');
      }
      throw AppError.unauthorized('not signed in');
    }
    if (user.status !== UserStatus.enabled) throw AppError.forbidden('this user is disabled');
    request.user = user;
  };

  /** Route guard after `sessionOnly`: refuses unless the password was checked recently in this browser. */
  readonly recentPassword: onRequestAsyncHookHandler = async (request) => {
    const user = request.user;
    const stamp = this.cookie.read(request);
    if (!user || !stamp || stamp.uid !== user.id || stamp.gen !== Number(user.session_generation)) {
      throw AppError.forbidden(
        `${PASSWORD_CHECK_REQUIRED}: confirm your password (POST /api/webauthn/password_check) before adding a passkey`,
      );
    }
  };

  /** Records that `user` just proved the password in this browser. */
  stamp(reply: FastifyReply, user: UserRow): void {
    this.cookie.write(reply, { uid: user.id, gen: Number(user.session_generation) });
  }
}
