import { oauthCallbackQuery, unbindBody, wechatCodeQuery } from '@one-hub/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Auth, currentUser } from '../../../http/auth.js';
import type { RouteRateLimit } from '../../../http/rate-limit.js';
import { ok } from '../../../http/reply.js';
import type { SessionCodec } from '../../../http/session.js';
import { parseInput } from '../../../http/validate.js';
import { toLoginUserView } from '../../user/presenter.js';
import type { SignInServices } from '../sign-in.js';
import type { ExternalIdentity } from './external-accounts.js';

/** OAuth / OIDC / WeChat sign-in, binding and unbinding. */
export function oauthRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; signIn: SignInServices; sessions: SessionCodec; critical: RouteRateLimit },
): void {
  const { auth, signIn, sessions, critical } = deps;
  const { external, oauthState } = signIn;
  // A signed-in caller binds the identity to its user instead of signing in.
  const callback = { config: critical, preHandler: auth.optionalUser };

  async function signInOrBind(
    request: FastifyRequest,
    reply: FastifyReply,
    identity: ExternalIdentity,
    affCode?: string,
  ) {
    if (request.user) {
      await external.bind(request.user, identity);
      return ok(undefined, 'bind');
    }
    const user = await external.signIn(identity, { sourceIp: request.ip, ...(affCode ? { affCode } : {}) });
    const signedIn = await external.recordSignIn(user, request.ip);
    sessions.issue(reply, signedIn);
    return ok(toLoginUserView(signedIn));
  }

  /** The state check comes first: a forged callback is refused before anything else happens. */
  const checkedQuery = (request: FastifyRequest) => {
    const state = (request.query as Record<string, unknown>).state;
    const stored = oauthState.check(request, typeof state === 'string' ? state : undefined);
    return { stored, query: parseInput(oauthCallbackQuery, request.query, 'query') };
  };

  // `data` stays the bare state (the reference console hands it to GitHub and Feishu); `nonce` is
  // for a console that builds an OIDC URL itself: the callback refuses an ID token without it.
  app.get('/api/oauth/state', { config: critical }, async (_request, reply) => {
    const { state, nonce } = oauthState.issue(reply);
    return { ...ok(state), nonce };
  });

  app.get('/api/oauth/github', callback, async (request, reply) => {
    const { query } = checkedQuery(request);
    return signInOrBind(request, reply, await signIn.github.identify(query.code), query.aff);
  });

  app.get('/api/oauth/lark', callback, async (request, reply) => {
    const { query } = checkedQuery(request);
    return signInOrBind(request, reply, await signIn.lark.identify(query.code));
  });

  app.get('/api/oauth/endpoint', { config: critical }, async (_request, reply) => {
    return ok(await signIn.oidc.authorizationUrl(oauthState.issue(reply, { pkce: true })));
  });

  app.get('/api/oauth/oidc', callback, async (request, reply) => {
    const { stored, query } = checkedQuery(request);
    return signInOrBind(request, reply, await signIn.oidc.identify(query.code, stored));
  });

  app.get('/api/oauth/wechat', { config: critical }, async (request, reply) => {
    const { code } = parseInput(wechatCodeQuery, request.query, 'query');
    return signInOrBind(request, reply, await signIn.wechat.identify(code));
  });

  app.get('/api/oauth/wechat/bind', { config: critical, onRequest: auth.requireUser }, async (request) => {
    const { code } = parseInput(wechatCodeQuery, request.query, 'query');
    await external.bind(currentUser(request), await signIn.wechat.identify(code));
    return ok();
  });

  app.post('/api/user/unbind', { onRequest: auth.requireUser }, async (request) => {
    const { type } = parseInput(unbindBody, request.body);
    await external.unbind(currentUser(request), type);
    return ok();
  });
}
