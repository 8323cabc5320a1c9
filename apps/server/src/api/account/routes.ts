import { loginBody, registerBody, selfUpdateBody } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import type { RouteRateLimit } from '../../http/rate-limit.js';
import { ok } from '../../http/reply.js';
import type { SessionCodec } from '../../http/session.js';
import { parseInput } from '../../http/validate.js';
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
  },
): void {
  const { auth, accounts, signIn, sessions, critical } = deps;
  const signedIn = { preHandler: auth.requireUser };

  app.post('/api/user/register', { config: critical, preHandler: signIn.turnstile.guard }, async (request) => {
    const user = await accounts.register(parseInput(registerBody, request.body), request.ip);
    return ok(toLoginUserView(user));
  });

  app.post('/api/user/login', { config: critical }, async (request, reply) => {
    const user = await accounts.login(parseInput(loginBody, request.body), request.ip);
    sessions.issue(reply, user);
    return ok(toLoginUserView(user));
  });

  app.get('/api/user/logout', async (_request, reply) => {
    sessions.clear(reply);
    return ok();
  });

  app.get('/api/user/self', signedIn, async (request) => ok(toUserView(currentUser(request))));

  app.put('/api/user/self', { ...signedIn, config: critical }, async (request, reply) => {
    const before = currentUser(request);
    const updated = await accounts.updateSelf(before, parseInput(selfUpdateBody, request.body));
    // A new password invalidates every session; keep this one signed in.
    if (updated.password !== before.password) sessions.issue(reply, updated);
    return ok(toUserView(updated));
  });

  app.get('/api/user/token', signedIn, async (request) =>
    ok(await accounts.regenerateAccessToken(currentUser(request))),
  );

  app.get('/api/user/aff', signedIn, async (request) => ok(await accounts.affCode(currentUser(request))));

  emailRoutes(app, deps);
  oauthRoutes(app, deps);
}
