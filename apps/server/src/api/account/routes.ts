import { loginBody, registerBody, selfUpdateBody } from '@one-hub/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import type { AccountSignInLimit, RouteRateLimit } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import { assertSameOriginGet } from '../../http/same-origin.js';
import type { SessionCodec } from '../../http/session.js';
import { parseInput } from '../../http/validate.js';
import type { PasskeysOnPasswordChange } from '../passkey/password-change.js';
import { toLoginUserView, toUserView } from '../user/presenter.js';
import { emailRoutes } from './email-routes.js';
import { oauthRoutes } from './oauth/routes.js';
import type { AccountService } from './service.js';
import type { SignInServices } from './sign-in.js';

export function accountRoutes(
  app: FastifyInstance,
  deps: {
    auth: Auth;
    accounts: AccountService;
    signIn: SignInServices;
    sessions: SessionCodec;
    critical: RouteRateLimit;
    signInLimit: AccountSignInLimit;
    passkeys: PasskeysOnPasswordChange;
  },
): void {
  const { auth, accounts, signIn, sessions, critical, signInLimit } = deps;
  const signedIn = { onRequest: auth.requireUser };

  app.post('/api/user/register', { config: critical, preHandler: signIn.turnstile.guard }, async (request) => {
    const user = await accounts.register(parseInput(registerBody, request.body), request.ip);
    return ok(toLoginUserView(user));
  });

  app.post('/api/user/login', { config: critical }, async (request, reply) => {
    const body = parseInput(loginBody, request.body);
    // Per account name as well as per address: a shared proxy address does not lock everyone out,
    // and changing addresses does not buy more guesses.
    await signInLimit.attempt(body.username);
    const user = await accounts.login(body, request.ip);
    await signInLimit.succeeded(body.username);
    sessions.issue(reply, user);
    return ok(toLoginUserView(user));
  });

  // Signing out ends every session of the user (see AccountService.logout). The GET stays for the
  // reference's console, same-origin only; this console uses POST.
  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await auth.sessionUser(request);
    if (user) await accounts.logout(user);
    sessions.clear(reply);
    return ok();
  };
  app.post('/api/user/logout', logout);
  app.get('/api/user/logout', async (request, reply) => {
    assertSameOriginGet(request);
    return logout(request, reply);
  });

  app.get('/api/user/self', signedIn, async (request) => ok(toUserView(currentUser(request))));

  app.put('/api/user/self', { ...signedIn, config: critical }, async (request, reply) => {
    const before = currentUser(request);
    const body = parseInput(selfUpdateBody, request.body);
    await deps.passkeys.check(before.id, body.remove_passkeys, Boolean(body.password));
    const updated = await accounts.updateSelf(before, body);
    if (updated.password !== before.password) {
      // A new password ends every session; keep this one signed in with a cookie of the new generation.
      sessions.issue(reply, updated);
      await deps.passkeys.removeAfterChange(updated.id, body.remove_passkeys);
    }
    return ok(toUserView(updated));
  });

  const newAccessToken = async (request: FastifyRequest) =>
    ok(await accounts.regenerateAccessToken(currentUser(request)));
  app.post('/api/user/token', signedIn, newAccessToken);
  app.get('/api/user/token', signedIn, async (request) => {
    assertSameOriginGet(request);
    return newAccessToken(request);
  });

  app.get('/api/user/aff', signedIn, async (request) => ok(await accounts.affCode(currentUser(request))));

  // `GET /api/user/payment` (the enabled gateways) is served by api/payment/routes.ts.

  emailRoutes(app, deps);
  oauthRoutes(app, deps);
}
