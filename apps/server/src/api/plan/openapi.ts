import {
  createPlanBody,
  grantPlanBody,
  idParam,
  planListQuery,
  planOrderBody,
  updatePlanBody,
} from '@one-hub/contracts';
import type { ResourceOperations } from '../openapi/operation.js';

export const planOperations: ResourceOperations = {
  tag: 'Plans',
  description: 'Subscription plans: administrators define and grant them, users buy them and read their windows.',
  operations: [
    { method: 'get', path: '/api/plan/', summary: 'List plans', access: 'admin', query: planListQuery, paged: true },
    { method: 'post', path: '/api/plan/', summary: 'Create a plan', access: 'admin', body: createPlanBody },
    { method: 'put', path: '/api/plan/', summary: 'Update a plan', access: 'admin', body: updatePlanBody },
    { method: 'get', path: '/api/plan/available', summary: 'The plans on sale', access: 'user' },
    { method: 'get', path: '/api/plan/:id(^\\d+$)', summary: 'Read a plan', access: 'admin', params: idParam },
    { method: 'delete', path: '/api/plan/:id(^\\d+$)', summary: 'Delete a plan', access: 'admin', params: idParam },
    {
      method: 'post',
      path: '/api/plan/grant',
      summary: 'Grant a plan to a user',
      access: 'admin',
      body: grantPlanBody,
    },
    {
      method: 'get',
      path: '/api/user/plan',
      summary: 'The caller’s subscription and its budget windows',
      access: 'user',
    },
    {
      method: 'post',
      path: '/api/user/plan/order',
      summary: 'Buy a plan: a payment order',
      description: 'Answers like POST /api/user/order.',
      access: 'user',
      body: planOrderBody,
    },
  ],
};
