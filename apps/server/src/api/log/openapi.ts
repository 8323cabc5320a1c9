import {
  deleteLogsQuery,
  logExportQuery,
  logListQuery,
  logStatQuery,
  ownLogExportQuery,
  ownLogListQuery,
  ownLogStatQuery,
} from '@one-hub/contracts';
import { FILE_EXPORT, type ResourceOperations } from '../openapi/operation.js';

export const logOperations: ResourceOperations = {
  tag: 'Logs',
  description:
    'Request logs: root sees every log, an administrator those of the users it outranks, everyone their own.',
  operations: [
    { method: 'get', path: '/api/log/', summary: 'List logs', access: 'admin', query: logListQuery, paged: true },
    {
      method: 'delete',
      path: '/api/log/',
      summary: 'Delete consume logs before a time',
      access: 'admin',
      query: deleteLogsQuery,
    },
    {
      method: 'get',
      path: '/api/log/self',
      summary: 'List the caller’s own logs',
      access: 'user',
      query: ownLogListQuery,
      paged: true,
    },
    {
      method: 'get',
      path: '/api/log/stat',
      summary: 'Sum quota and tokens over logs',
      access: 'admin',
      query: logStatQuery,
    },
    {
      method: 'get',
      path: '/api/log/self/stat',
      summary: 'Sum the caller’s own logs',
      access: 'user',
      query: ownLogStatQuery,
    },
    {
      method: 'get',
      path: '/api/log/export',
      summary: 'Export the logs the list shows',
      access: 'admin',
      query: logExportQuery,
      answer: FILE_EXPORT,
    },
    {
      method: 'get',
      path: '/api/log/self/export',
      summary: 'Export the caller’s own logs',
      access: 'user',
      query: ownLogExportQuery,
      answer: FILE_EXPORT,
    },
  ],
};
