import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import type { AccountSignInLimit, RouteRateLimit } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import type { SessionCodec } from '../../http/session.js';
import { SignedCookie } from '../../http/signed-cookie.js';
import { parseInput } from '../../http/validate.js';
import { AppError } from '../../platform/errors.js';
import { verifyPassword } from '../../platform/password.js';
import type { Services } from '../../services.js';
import { toLoginUserView } from '../user/presenter.js';
import { CHALLENGE_TTL_SECONDS, PasskeyChallenges } from './challenges.js';
import { PasskeyEnrolmentGuard } from './enrolment-guard.js';
import { mailPasskeyAdded } from './notices.js';
import { PasskeyRepository } from './repo.js';
import { PasskeyService } from './service.js';
import {
  authenticationResponse,
  loginBeginBody,
  passwordCheckBody,
  registrationBeginBody,
  registrationResponse,
} from './wire.js';

/** Names the sign-in in progress in this browser; its challenge waits in the shared cache. */
const FLOW_COOKIE = 'passkey_login';

/** `/api/webauthn/*`: passkey registration and management for signed-in users, and passkey sign-in. */
export function passkeyRoutes(
  app: FastifyInstance,
  deps: {
    auth: Auth;
    services: Pick<Services, 'database' | 'cache' | 'options' | 'userRepository' | 'signIn'>;
    sessions: SessionCodec;
    critical: RouteRateLimit;
    /** The password sign-in's per-account limit, which the password check shares. */
    signInLimit: AccountSignInLimit;
    /** Signs the sign-in flow cookie. */
    secret: string;
  },
): void {
  const { auth, services, sessions, critical } = deps;
  const passkeys = new PasskeyService(
    new PasskeyRepository(services.database),
    services.userRepository,
    services.options,
    new PasskeyChallenges(services.cache),
    services.signIn.external,
  );
  const flowCookie = new SignedCookie<{ flow: string }>(deps.secret, FLOW_COOKIE, CHALLENGE_TTL_SECONDS, {
    label: 'passkey-login',
  });
  const signedIn = { onRequest: auth.requireUser };
  const guard = new PasskeyEnrolmentGuard(deps.secret, auth);
  const enrolling = { onRequest: [guard.sessionOnly, guard.recentPassword] };

  // The password again, from the signed-in browser: it opens ten minutes in which passkeys may be added.
  app.post(
    '/api/webauthn/password_check',
    { config: critical, onRequest: guard.sessionOnly },
    async (request, reply) => {
      const user = currentUser(request);
      const { password } = parseInput(passwordCheckBody, request.body);
      await deps.signInLimit.attempt(user.username);
      if (!(await verifyPassword(password, user.password)))
        throw AppError.forbidden('the password is wrong', 'password');
      await deps.signInLimit.succeeded(user.username);
      guard.stamp(reply, user);
      return ok();
    },
  );

  app.post('/api/webauthn/registration/begin', enrolling, async (request) => {
    const { alias } = parseInput(registrationBeginBody, request.body ?? {});
    return ok(await passkeys.beginRegistration(currentUser(request), alias || undefined));
  });

  app.post('/api/webauthn/registration/finish', enrolling, async (request) => {
    const user = currentUser(request);
    const added = await passkeys.finishRegistration(user, parseInput(registrationResponse, request.body));
    const mail = { mailer: services.signIn.mailer, options: services.options, log: request.log };
    mailPasskeyAdded(mail, user, added, request.ip);
    return ok(added, 'passkey registered');
  });

  app.post('/api/webauthn/login/begin', { config: critical }, async (request, reply) => {
    const { username } = parseInput(loginBeginBody, request.body ?? {});
    const { flow, options } = await passkeys.beginLogin(username || undefined);
    flowCookie.write(reply, { flow });
    return ok(options);
  });

  app.post('/api/webauthn/login/finish', { config: critical }, async (request, reply) => {
    const response = parseInput(authenticationResponse, request.body);
    const flow = flowCookie.read(request)?.flow;
    // The challenge is spent whatever the outcome; the cookie goes with it.
    flowCookie.clear(reply);
    const user = await passkeys.finishLogin(typeof flow === 'string' ? flow : undefined, response, request.ip);
    sessions.issue(reply, user);
    return ok(toLoginUserView(user));
  });

  app.get('/api/webauthn/credentials', signedIn, async (request) => ok(await passkeys.list(currentUser(request))));

  app.delete('/api/webauthn/credentials/:id', signedIn, async (request) => {
    const raw = (request.params as { id: string }).id;
    const id = Number(raw);
    if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(id)) throw AppError.badRequest('id: must be a passkey id');
    await passkeys.remove(currentUser(request), id);
    return ok(undefined, 'passkey deleted');
  });
}
