import {
  adminTokenSearchQuery,
  adminUpdateTokenBody,
  createTokenBody,
  tokenListQuery,
  tokenStatusBody,
  tokenUpdateQuery,
  updateTokenBody,
} from '@one-hub/contracts';
import { z } from 'zod';
import { editedListOperations, STATUS_ONLY } from '../openapi/edited-list.js';
import type { ResourceOperations } from '../openapi/operation.js';

/** `PUT ?status_only=1` takes only `{id, status}`; otherwise the whole key. */
const ownUpdate = z.union([updateTokenBody, tokenStatusBody]);
const adminUpdate = z.union([adminUpdateTokenBody, tokenStatusBody]);

export const tokenOperations: ResourceOperations = {
  tag: 'Tokens',
  description:
    'API keys (`sk-…`) for the relay: each user manages their own; administrators those of users below them.',
  operations: [
    ...editedListOperations({
      base: '/api/token/',
      one: 'one of your API keys',
      many: 'your API keys',
      access: 'user',
      listQuery: tokenListQuery,
      create: createTokenBody,
      update: ownUpdate,
      updateQuery: tokenUpdateQuery,
      updateDescription: STATUS_ONLY,
    }),
    {
      method: 'post',
      path: '/api/token/playground',
      summary: 'The playground key (created on first use)',
      access: 'user',
    },
    {
      method: 'get',
      path: '/api/token/playground',
      summary: 'The playground key (same-origin pages only)',
      description: 'Kept for the reference console; prefer POST.',
      access: 'user',
    },
    {
      method: 'get',
      path: '/api/token/admin/search',
      summary: 'Search the API keys of users below you',
      access: 'admin',
      query: adminTokenSearchQuery,
      paged: true,
    },
    {
      method: 'put',
      path: '/api/token/admin',
      summary: 'Update an API key of a user below you',
      description: STATUS_ONLY,
      access: 'admin',
      query: tokenUpdateQuery,
      body: adminUpdate,
    },
  ],
};
