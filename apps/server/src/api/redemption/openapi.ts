import {
  createRedemptionBody,
  redemptionListQuery,
  redemptionStatusBody,
  redemptionUpdateQuery,
  topUpBody,
  updateRedemptionBody,
} from '@one-hub/contracts';
import { z } from 'zod';
import { editedListOperations, STATUS_ONLY } from '../openapi/edited-list.js';
import type { ResourceOperations } from '../openapi/operation.js';

export const redemptionOperations: ResourceOperations = {
  tag: 'Redemptions',
  description: 'Redemption codes: administrators make them, any signed-in user redeems one.',
  operations: [
    ...editedListOperations({
      base: '/api/redemption/',
      one: 'a code (creation: a batch of them)',
      many: 'codes',
      access: 'admin',
      listQuery: redemptionListQuery,
      create: createRedemptionBody,
      update: z.union([updateRedemptionBody, redemptionStatusBody]),
      updateQuery: redemptionUpdateQuery,
      updateDescription: STATUS_ONLY,
    }),
    {
      method: 'post',
      path: '/api/user/topup',
      summary: 'Redeem a code into the caller’s quota',
      access: 'user',
      body: topUpBody,
    },
  ],
};
