import { analyticsPeriodQuery, multiUserStatsQuery, topUsersQuery } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { AnalyticsService } from './analytics-service.js';
import type { DashboardService, RequestRateSource } from './dashboard-service.js';

/**
 * Usage read from the daily roll-up: each user's dashboard, and the administrators' analytics (an
 * admin's cover itself and the users it outranks).
 */
export function statisticsRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; dashboard: DashboardService; analytics: AnalyticsService; rate: RequestRateSource },
): void {
  const { auth, dashboard, analytics, rate } = deps;
  const user = { onRequest: auth.requireUser };
  const admin = { onRequest: auth.requireAdmin };

  app.get('/api/user/dashboard', user, async (request) => ok(await dashboard.dashboard(currentUser(request))));

  app.get('/api/user/dashboard/rate', user, async (request) => ok(await dashboard.rate(currentUser(request), rate)));

  app.get('/api/analytics/statistics', admin, async (request) => ok(await analytics.summary(currentUser(request))));

  app.get('/api/analytics/period', admin, async (request) =>
    ok(await analytics.period(currentUser(request), parseInput(analyticsPeriodQuery, request.query, 'query'))),
  );

  app.get('/api/analytics/top_users', admin, async (request) =>
    ok(await analytics.topUsers(currentUser(request), parseInput(topUsersQuery, request.query, 'query'))),
  );

  // The reference answers `model_usage` beside `data`, outside the usual envelope's data.
  app.get('/api/analytics/multi_user_stats', admin, async (request) => {
    const stats = await analytics.multiUserStats(
      currentUser(request),
      parseInput(multiUserStatsQuery, request.query, 'query'),
    );
    return { success: true, message: '', data: stats.data, model_usage: stats.model_usage };
  });

  app.get('/api/analytics/multi_user_stats/export', admin, async (request, reply) => {
    const file = await analytics.multiUserStatsCsv(
      currentUser(request),
      parseInput(multiUserStatsQuery, request.query, 'query'),
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.text);
  });
}
