import { analyticsPeriodQuery, multiUserStatsQuery, topUsersQuery } from '@one-hub/contracts';
import type { ResourceOperations } from '../openapi/operation.js';

const UPTIME_KUMA = 'Uptime Kuma’s own JSON, not enveloped (404 when UptimeEnabled is off).';

export const statisticsOperations: ResourceOperations = {
  tag: 'Statistics',
  description: 'Usage from the daily roll-up: each user’s dashboard and the administrators’ analytics.',
  operations: [
    { method: 'get', path: '/api/user/dashboard', summary: 'The caller’s usage by day and model', access: 'user' },
    {
      method: 'get',
      path: '/api/user/dashboard/rate',
      summary: 'The caller’s requests and tokens per minute now',
      access: 'user',
    },
    {
      method: 'get',
      path: '/api/analytics/statistics',
      summary: 'Totals: users, channels, redemptions',
      access: 'admin',
    },
    {
      method: 'get',
      path: '/api/analytics/period',
      summary: 'Usage over a period',
      access: 'admin',
      query: analyticsPeriodQuery,
    },
    {
      method: 'get',
      path: '/api/analytics/top_users',
      summary: 'The users who used most',
      access: 'admin',
      query: topUsersQuery,
    },
    {
      method: 'get',
      path: '/api/analytics/multi_user_stats',
      summary: 'Usage of several users by day',
      description: 'Answers `model_usage` beside `data`, as the reference does.',
      access: 'admin',
      query: multiUserStatsQuery,
    },
    {
      method: 'get',
      path: '/api/analytics/multi_user_stats/export',
      summary: 'The same as a CSV file',
      access: 'admin',
      query: multiUserStatsQuery,
      answer: { contentTypes: ['text/csv'], description: 'A CSV file (attachment).' },
    },
    {
      method: 'get',
      path: '/api/user/dashboard/uptimekuma/status-page',
      summary: 'The service status page (Uptime Kuma)',
      access: 'user',
      answer: { contentTypes: ['application/json'], description: UPTIME_KUMA },
    },
    {
      method: 'get',
      path: '/api/user/dashboard/uptimekuma/status-page/heartbeat',
      summary: 'The service status page’s heartbeats (Uptime Kuma)',
      access: 'user',
      answer: { contentTypes: ['application/json'], description: UPTIME_KUMA },
    },
  ],
};
