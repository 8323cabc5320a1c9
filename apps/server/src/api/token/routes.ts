import {
  adminTokenSearchQuery,
  adminUpdateTokenBody,
  createTokenBody,
  idParam,
  tokenListQuery,
  tokenStatusBody,
  tokenUpdateQuery,
  updateTokenBody,
} from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { BudgetUsageReader } from '../../domain/budget-windows.js';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { assertSameOriginGet } from '../../http/same-origin.js';
import { parseInput } from '../../http/validate.js';
import type { TokenService } from './service.js';

/** API keys: each user manages their own; administrators search and edit those of users below their role. */
export function tokenRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; tokens: TokenService; budgetUsage: BudgetUsageReader },
): void {
  const { auth, tokens, budgetUsage } = deps;
  const user = { onRequest: auth.requireUser };
  const admin = { onRequest: auth.requireAdmin };

  app.get('/api/token/', user, async (request) =>
    ok(await tokens.listOwn(currentUser(request), parseInput(tokenListQuery, request.query, 'query'))),
  );

  // Creates the key on first use, so POST; the GET stays for the reference's console, same-origin only.
  app.post('/api/token/playground', user, async (request) => ok(await tokens.playgroundKey(currentUser(request))));
  app.get('/api/token/playground', user, async (request) => {
    assertSameOriginGet(request);
    return ok(await tokens.playgroundKey(currentUser(request)));
  });

  app.get('/api/token/:id', user, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    const token = await tokens.getOwn(currentUser(request), id);
    const subject = { scope: 'key' as const, subject: `key:${token.id}`, budgets: token.setting.budgets };
    return ok({ ...token, budget_windows: await budgetUsage.windows([subject]) });
  });

  app.post('/api/token/', user, async (request) =>
    ok(await tokens.create(currentUser(request), parseInput(createTokenBody, request.body))),
  );

  app.put('/api/token/', user, async (request) => {
    const caller = currentUser(request);
    const { status_only: statusOnly } = parseInput(tokenUpdateQuery, request.query, 'query');
    if (statusOnly) return ok(await tokens.setOwnStatus(caller, parseInput(tokenStatusBody, request.body)));
    return ok(await tokens.updateOwn(caller, parseInput(updateTokenBody, request.body)));
  });

  app.delete('/api/token/:id', user, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    await tokens.deleteOwn(currentUser(request), id);
    return ok();
  });

  // Administrators manage only the keys of users below their role; root manages everyone's.
  app.get('/api/token/admin/search', admin, async (request) =>
    ok(await tokens.adminSearch(currentUser(request), parseInput(adminTokenSearchQuery, request.query, 'query'))),
  );

  app.put('/api/token/admin', admin, async (request) => {
    const caller = currentUser(request);
    const { status_only: statusOnly } = parseInput(tokenUpdateQuery, request.query, 'query');
    if (statusOnly) return ok(await tokens.adminSetStatus(caller, parseInput(tokenStatusBody, request.body)));
    return ok(await tokens.adminUpdate(caller, parseInput(adminUpdateTokenBody, request.body)));
  });
}
