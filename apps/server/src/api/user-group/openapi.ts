import { createUserGroupBody, idParam, updateUserGroupBody } from '@one-hub/contracts';
import { editedListOperations } from '../openapi/edited-list.js';
import type { ResourceOperations } from '../openapi/operation.js';
import { listQuery } from './routes.js';

export const userGroupOperations: ResourceOperations = {
  tag: 'User groups',
  description: 'User groups: their price ratios, limits and budgets.',
  operations: [
    ...editedListOperations({
      base: '/api/user_group/',
      one: 'a group',
      many: 'groups',
      access: 'admin',
      listQuery,
      create: createUserGroupBody,
      update: updateUserGroupBody,
      readDescription: 'With how its members stand in each budget window.',
    }),
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
