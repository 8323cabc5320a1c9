import {
  createPlanBody,
  grantPlanBody,
  idParam,
  planListQuery,
  planOrderBody,
  subscriptionListQuery,
  updatePlanBody,
} from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { BudgetUsageReader } from '../../domain/budget-windows.js';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { PlanService } from './service.js';
import type { SubscriptionService } from './subscription-service.js';

export interface PlanRouteDeps {
  auth: Auth;
  plans: PlanService;
  subscriptions: SubscriptionService;
  /** Current use of budget windows: the relay's ledger, handed in by the composition root. */
  budgetUsage: BudgetUsageReader;
}

/** Subscription plans (issue 33): administrators define and grant them, users buy them and see their windows. */
export function planRoutes(app: FastifyInstance, deps: PlanRouteDeps): void {
  const { auth, plans, subscriptions, budgetUsage } = deps;
  const admin = { onRequest: auth.requireAdmin };
  const user = { onRequest: auth.requireUser };

  app.get('/api/plan/', admin, async (request) =>
    ok(await plans.list(parseInput(planListQuery, request.query, 'query'))),
  );
  app.get('/api/plan/available', user, async () => ok(await plans.available()));
  app.get('/api/plan/:id(^\\d+$)', admin, async (request) =>
    ok(await plans.get(parseInput(idParam, request.params, 'path').id)),
  );
  app.post('/api/plan/', admin, async (request) => ok(await plans.create(parseInput(createPlanBody, request.body))));
  app.put('/api/plan/', admin, async (request) => ok(await plans.update(parseInput(updatePlanBody, request.body))));
  app.delete('/api/plan/:id(^\\d+$)', admin, async (request) => {
    await plans.delete(parseInput(idParam, request.params, 'path').id);
    return ok();
  });
  app.post('/api/plan/grant', admin, async (request) =>
    ok(
      await subscriptions.grant(currentUser(request), parseInput(grantPlanBody, request.body), budgetUsage, request.ip),
    ),
  );
  app.get('/api/plan/subscriptions', admin, async (request) =>
    ok(
      await subscriptions.subscribers(currentUser(request), parseInput(subscriptionListQuery, request.query, 'query')),
    ),
  );
  app.post('/api/plan/subscription/:id(^\\d+$)/end', admin, async (request) =>
    ok(await subscriptions.end(currentUser(request), parseInput(idParam, request.params, 'path').id, request.ip)),
  );

  app.get('/api/user/plan', user, async (request) =>
    ok(await subscriptions.userPlan(currentUser(request), budgetUsage)),
  );
  // The answer is the top-up order's (`POST /api/user/order`), so the console's pay dialog takes either.
  app.post('/api/user/plan/order', user, async (request) =>
    ok(await plans.order(currentUser(request), parseInput(planOrderBody, request.body), request.ip)),
  );
}
