import {
  createPlanBody,
  grantPlanBody,
  idParam,
  planListQuery,
  planOrderBody,
  subscriptionListQuery,
  updatePlanBody,
} from '@one-hub/contracts';
import { editedListOperations } from '../openapi/edited-list.js';
import type { ResourceOperations } from '../openapi/operation.js';

export const planOperations: ResourceOperations = {
  tag: 'Plans',
  description: 'Subscription plans: administrators define and grant them, users buy them and read their windows.',
  operations: [
    ...editedListOperations({
      base: '/api/plan/',
      idPath: ':id(^\\d+$)',
      one: 'a plan',
      many: 'plans',
      access: 'admin',
      listQuery: planListQuery,
      create: createPlanBody,
      update: updatePlanBody,
    }),
    { method: 'get', path: '/api/plan/available', summary: 'The plans on sale', access: 'user' },
    {
      method: 'post',
      path: '/api/plan/grant',
      summary: 'Grant a plan to a user',
      access: 'admin',
      body: grantPlanBody,
    },
    {
      method: 'get',
      path: '/api/plan/subscriptions',
      summary: 'List the running subscriptions',
      description: 'With each holder; `endable` when the caller outranks the holder. `plan_id` narrows to one plan.',
      access: 'admin',
      query: subscriptionListQuery,
      paged: true,
    },
    {
      method: 'post',
      path: '/api/plan/subscription/:id(^\\d+$)/end',
      summary: 'End a subscription now',
      description: 'The holder goes back to their group as at expiry; 409 when it has already ended.',
      access: 'admin',
      params: idParam,
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
