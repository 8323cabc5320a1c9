import {
  createRedemptionBody,
  idParam,
  redemptionListQuery,
  redemptionStatusBody,
  redemptionUpdateQuery,
  topUpBody,
  updateRedemptionBody,
} from '@one-hub/contracts';
import { z } from 'zod';
import type { ResourceOperations } from '../openapi/operation.js';

export const redemptionOperations: ResourceOperations = {
  tag: 'Redemptions',
  description: 'Redemption codes: administrators make them, any signed-in user redeems one.',
  operations: [
    {
      method: 'get',
      path: '/api/redemption/',
      summary: 'List or search codes',
      access: 'admin',
      query: redemptionListQuery,
      paged: true,
    },
    { method: 'post', path: '/api/redemption/', summary: 'Create codes', access: 'admin', body: createRedemptionBody },
    {
      method: 'put',
      path: '/api/redemption/',
      summary: 'Update a code',
      description: 'With `status_only=1` the body is `{id, status}` and only the status changes.',
      access: 'admin',
      query: redemptionUpdateQuery,
      body: z.union([updateRedemptionBody, redemptionStatusBody]),
    },
    { method: 'get', path: '/api/redemption/:id', summary: 'Read a code', access: 'admin', params: idParam },
    { method: 'delete', path: '/api/redemption/:id', summary: 'Delete a code', access: 'admin', params: idParam },
    {
      method: 'post',
      path: '/api/user/topup',
      summary: 'Redeem a code into the caller’s quota',
      access: 'user',
      body: topUpBody,
    },
  ],
};
