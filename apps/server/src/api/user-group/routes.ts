import { createUserGroupBody, idParam, pageQuery, updateUserGroupBody } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BudgetUsageReader } from '../../domain/budget-windows.js';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { UserGroupService } from './service.js';

export const listQuery = pageQuery.extend({
  name: z.string().trim().max(50).optional(),
  enable: z
    .enum(['true', 'false', '1', '0', ''], 'enable must be true or false')
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : value === 'true' || value === '1')),
});

export function userGroupRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; groups: UserGroupService; budgetUsage: BudgetUsageReader },
): void {
  const { auth, groups, budgetUsage } = deps;
  const admin = { onRequest: auth.requireAdmin };

  app.get('/api/user_group/', admin, async (request) => {
    const query = parseInput(listQuery, request.query, 'query');
    return ok(await groups.list(query, { name: query.name, enable: query.enable }));
  });
  app.get('/api/user_group/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    const group = await groups.get(id);
    // What the group dialog shows under its budgets: how the members stand in each window.
    return ok({ ...group, budget_windows: await groups.budgetWindows(group, budgetUsage) });
  });
  app.post('/api/user_group/', admin, async (request) =>
    ok(await groups.create(parseInput(createUserGroupBody, request.body))),
  );
  app.put('/api/user_group/', admin, async (request) =>
    ok(await groups.update(parseInput(updateUserGroupBody, request.body))),
  );
  app.put('/api/user_group/enable/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    return ok(await groups.toggleEnabled(id));
  });
  app.delete('/api/user_group/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    await groups.delete(id);
    return ok();
  });

  app.get('/api/group/', admin, async () => ok(await groups.enabledSymbols()));

  app.get('/api/user_group_map', { preHandler: auth.optionalUser }, async (request) =>
    ok(await groups.visibleTo(request.user?.group)),
  );
}
