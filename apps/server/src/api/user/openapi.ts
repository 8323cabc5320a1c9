import {
  adminCreateUserBody,
  adminUpdateUserBody,
  idParam,
  keywordPageQuery,
  manageUserBody,
  quotaChangeBody,
} from '@one-hub/contracts';
import type { ResourceOperations } from '../openapi/operation.js';

export const userOperations: ResourceOperations = {
  tag: 'Users',
  description: 'Administrators’ user management: only users below the caller’s role (root manages everyone).',
  operations: [
    {
      method: 'get',
      path: '/api/user/',
      summary: 'List or search users',
      access: 'admin',
      query: keywordPageQuery,
      paged: true,
    },
    { method: 'post', path: '/api/user/', summary: 'Create a user', access: 'admin', body: adminCreateUserBody },
    { method: 'put', path: '/api/user/', summary: 'Update a user', access: 'admin', body: adminUpdateUserBody },
    {
      method: 'get',
      path: '/api/user/:id(^\\d+$)',
      summary: 'Read a user with its budget windows',
      access: 'admin',
      params: idParam,
    },
    { method: 'delete', path: '/api/user/:id(^\\d+$)', summary: 'Delete a user', access: 'admin', params: idParam },
    {
      method: 'post',
      path: '/api/user/manage',
      summary: 'Enable, disable, promote, demote or delete a user',
      access: 'admin',
      body: manageUserBody,
    },
    {
      method: 'post',
      path: '/api/user/quota/:id',
      summary: 'Add to or take from a user’s quota',
      access: 'admin',
      params: idParam,
      body: quotaChangeBody,
    },
  ],
};
