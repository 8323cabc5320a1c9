import { emailBindQuery, emailCodeQuery, passwordResetBody } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import type { RouteRateLimit } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { PasskeysOnPasswordChange } from '../passkey/password-change.js';
import type { SignInServices } from './sign-in.js';

/** E-mail verification codes, password reset and e-mail binding; all behind the critical limiter. */
export function emailRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; signIn: SignInServices; critical: RouteRateLimit; passkeys: PasskeysOnPasswordChange },
): void {
  const { auth, signIn, critical } = deps;
  const humanOnly = { config: critical, preHandler: signIn.turnstile.guard };

  app.get('/api/verification', humanOnly, async (request) => {
    const { email } = parseInput(emailCodeQuery, request.query, 'query');
    await signIn.email.sendVerificationCode(email);
    return ok(undefined, 'the verification code has been sent; it is valid for 10 minutes');
  });

  app.get('/api/reset_password', humanOnly, async (request) => {
    const { email } = parseInput(emailCodeQuery, request.query, 'query');
    await signIn.email.sendPasswordReset(email);
    return ok(undefined, 'if a user has this e-mail address, a reset link has been sent to it');
  });

  app.post('/api/user/reset', { config: critical }, async (request) => {
    const body = parseInput(passwordResetBody, request.body);
    const password = await signIn.email.resetPassword(body.email, body.token);
    // Passkeys outlive the password: the answer lists those left, and the reset can remove them all.
    const passkeys = await deps.passkeys.removeAfterReset(body.email, body.remove_passkeys === true);
    return { ...ok(password), passkeys };
  });

  app.get('/api/oauth/email/bind', { config: critical, onRequest: auth.requireUser }, async (request) => {
    const query = parseInput(emailBindQuery, request.query, 'query');
    await signIn.email.bindEmail(currentUser(request), query.email, query.code);
    return ok();
  });
}
