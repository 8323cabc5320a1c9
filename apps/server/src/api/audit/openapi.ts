import { auditExportQuery, auditListQuery } from '@one-hub/contracts';
import { FILE_EXPORT, type ResourceOperations } from '../openapi/operation.js';

export const auditOperations: ResourceOperations = {
  tag: 'Audit log',
  description: 'Every change made through the management API: root reads every row, an administrator its own actions.',
  operations: [
    {
      method: 'get',
      path: '/api/audit/',
      summary: 'List audit rows',
      access: 'admin',
      query: auditListQuery,
      paged: true,
    },
    {
      method: 'get',
      path: '/api/audit/export',
      summary: 'Export the audit rows the list shows',
      access: 'admin',
      query: auditExportQuery,
      answer: FILE_EXPORT,
    },
  ],
};
