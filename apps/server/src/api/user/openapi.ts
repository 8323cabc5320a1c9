import {
  adminCreateUserBody,
  adminUpdateUserBody,
  idParam,
  keywordPageQuery,
  manageUserBody,
  quotaChangeBody,
} from '@one-hub/contracts';
import { editedListOperations } from '../openapi/edited-list.js';
import type { ResourceOperations } from '../openapi/operation.js';

export const userOperations: ResourceOperations = {
  tag: 'Users',
  description: 'Administrators’ user management: only users below the caller’s role (root manages everyone).',
  operations: [
    ...editedListOperations({
      base: '/api/user/',
      idPath: ':id(^\\d+$)',
      one: 'a user',
      many: 'users',
      readDescription: 'With the budget windows of the user and its group.',
      access: 'admin',
      listQuery: keywordPageQuery,
      create: adminCreateUserBody,
      update: adminUpdateUserBody,
    }),
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
