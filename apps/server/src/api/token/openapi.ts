import {
  adminTokenSearchQuery,
  adminUpdateTokenBody,
  createTokenBody,
  idParam,
  tokenListQuery,
  tokenStatusBody,
  tokenUpdateQuery,
  updateTokenBody,
} from '@one-hub/contracts';
import { z } from 'zod';
import type { ResourceOperations } from '../openapi/operation.js';

/** `PUT ?status_only=1` takes only `{id, status}`; otherwise the whole key. */
const ownUpdate = z.union([updateTokenBody, tokenStatusBody]);
const adminUpdate = z.union([adminUpdateTokenBody, tokenStatusBody]);

export const tokenOperations: ResourceOperations = {
  tag: 'Tokens',
  description:
    'API keys (`sk-…`) for the relay: each user manages their own; administrators those of users below them.',
  operations: [
    {
      method: 'get',
      path: '/api/token/',
      summary: 'List your API keys',
      access: 'user',
      query: tokenListQuery,
      paged: true,
    },
    { method: 'post', path: '/api/token/', summary: 'Create an API key', access: 'user', body: createTokenBody },
    {
      method: 'put',
      path: '/api/token/',
      summary: 'Update one of your API keys',
      description: 'With `status_only=1` the body is `{id, status}` and only the status changes.',
      access: 'user',
      query: tokenUpdateQuery,
      body: ownUpdate,
    },
    { method: 'get', path: '/api/token/:id', summary: 'Read one of your API keys', access: 'user', params: idParam },
    {
      method: 'delete',
      path: '/api/token/:id',
      summary: 'Delete one of your API keys',
      access: 'user',
      params: idParam,
    },
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
      description: 'With `status_only=1` the body is `{id, status}` and only the status changes.',
      access: 'admin',
      query: tokenUpdateQuery,
      body: adminUpdate,
    },
  ],
};
