import { midjourneyListQuery } from '@one-hub/contracts';
import type { ResourceOperations } from '../openapi/operation.js';

export const midjourneyOperations: ResourceOperations = {
  tag: 'Midjourney',
  description: 'Midjourney jobs.',
  operations: [
    {
      method: 'get',
      path: '/api/mj/',
      summary: 'List Midjourney jobs',
      access: 'admin',
      query: midjourneyListQuery,
      paged: true,
    },
    {
      method: 'get',
      path: '/api/mj/self',
      summary: 'List the caller’s Midjourney jobs',
      access: 'user',
      query: midjourneyListQuery,
      paged: true,
    },
  ],
};
