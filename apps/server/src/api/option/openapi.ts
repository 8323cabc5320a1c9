import { systemLogBody, updateOptionBody } from '@one-hub/contracts';
import type { ResourceOperations } from '../openapi/operation.js';

export const optionOperations: ResourceOperations = {
  tag: 'Options',
  description: 'Site settings (root only) and the server log viewer.',
  operations: [
    { method: 'get', path: '/api/option/', summary: 'List the settings (secrets left out)', access: 'root' },
    { method: 'put', path: '/api/option/', summary: 'Change one setting', access: 'root', body: updateOptionBody },
    { method: 'get', path: '/api/option/secrets', summary: 'Which secret settings are set', access: 'root' },
    { method: 'get', path: '/api/option/safe_tools', summary: 'The content-safety tools on offer', access: 'root' },
    {
      method: 'post',
      path: '/api/system_info/log',
      summary: 'The node’s recent server log lines',
      access: 'root',
      body: systemLogBody,
    },
    {
      method: 'post',
      path: '/api/option/system_info/log',
      summary: 'The node’s recent server log lines (the reference’s second path)',
      access: 'root',
      body: systemLogBody,
    },
  ],
};
