import { createUserGroupBody, idParam, updateUserGroupBody } from '@one-hub/contracts';
import type { ResourceOperations } from '../openapi/operation.js';
import { listQuery } from './routes.js';

export const userGroupOperations: ResourceOperations = {
  tag: 'User groups',
  description: 'User groups: their price ratios, limits and budgets.',
  operations: [
    {
      method: 'get',
      path: '/api/user_group/',
      summary: 'List or search groups',
      access: 'admin',
      query: listQuery,
      paged: true,
    },
    { method: 'post', path: '/api/user_group/', summary: 'Create a group', access: 'admin', body: createUserGroupBody },
    { method: 'put', path: '/api/user_group/', summary: 'Update a group', access: 'admin', body: updateUserGroupBody },
    {
      method: 'get',
      path: '/api/user_group/:id',
      summary: 'Read a group with its members’ budget windows',
      access: 'admin',
      params: idParam,
    },
    { method: 'delete', path: '/api/user_group/:id', summary: 'Delete a group', access: 'admin', params: idParam },
    {
      method: 'put',
      path: '/api/user_group/enable/:id',
      summary: 'Enable or disable a group',
      access: 'admin',
      params: idParam,
    },
    { method: 'get', path: '/api/group/', summary: 'The symbols of the enabled groups', access: 'admin' },
    {
      method: 'get',
      path: '/api/user_group_map',
      summary: 'The groups a caller may choose for a key',
      description: 'A signed-in caller also sees their own group.',
      access: 'optional',
    },
  ],
};
