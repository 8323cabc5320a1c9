import {
  adminCreateUserBody,
  adminUpdateUserBody,
  idParam,
  keywordPageQuery,
  manageUserBody,
  quotaChangeBody,
} from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type BudgetUsageReader, userBudgetSubjects } from '../../domain/budget-windows.js';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { UserGroupService } from '../user-group/service.js';
import type { UserService } from './service.js';

/** Administrators' user management. Self-service paths live in api/account. */
export function userRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; users: UserService; groups: UserGroupService; budgetUsage: BudgetUsageReader },
): void {
  const { auth, users, groups, budgetUsage } = deps;
  const admin = { onRequest: auth.requireAdmin };

  app.get('/api/user/', admin, async (request) =>
    ok(await users.list(currentUser(request), parseInput(keywordPageQuery, request.query, 'query'))),
  );

  app.get('/api/user/:id(^\\d+$)', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    const user = await users.get(currentUser(request), id);
    const group = await groups.find(user.group);
    return ok({ ...user, budget_windows: await budgetUsage.windows(userBudgetSubjects(user, group)) });
  });

  app.post('/api/user/', admin, async (request) =>
    ok(await users.adminCreate(parseInput(adminCreateUserBody, request.body))),
  );

  app.put('/api/user/', admin, async (request) =>
    ok(await users.adminUpdate(currentUser(request), parseInput(adminUpdateUserBody, request.body), request.body)),
  );

  app.delete('/api/user/:id(^\\d+$)', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    await users.delete(currentUser(request), id);
    return ok();
  });

  app.post('/api/user/manage', admin, async (request) =>
    ok(await users.manage(currentUser(request), parseInput(manageUserBody, request.body))),
  );

  app.post('/api/user/quota/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    const body = parseInput(quotaChangeBody, request.body);
    return ok(await users.changeQuota(currentUser(request), id, body, request.ip));
  });
}
