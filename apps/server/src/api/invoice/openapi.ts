import { invoiceDetailQuery, invoiceListQuery, invoiceMonthParam } from '@one-hub/contracts';
import type { ResourceOperations } from '../openapi/operation.js';

export const invoiceOperations: ResourceOperations = {
  tag: 'Invoices',
  description: 'Monthly usage statements: each user reads their own; root builds them.',
  operations: [
    {
      method: 'get',
      path: '/api/user/invoice',
      summary: 'List the caller’s monthly statements',
      access: 'user',
      query: invoiceListQuery,
      paged: true,
    },
    {
      method: 'get',
      path: '/api/user/invoice/detail',
      summary: 'One month’s statement by model',
      access: 'user',
      query: invoiceDetailQuery,
    },
    {
      method: 'post',
      path: '/api/option/invoice/gen/:time',
      summary: 'Build a month’s statements (keeps existing ones)',
      access: 'root',
      params: invoiceMonthParam,
    },
    {
      method: 'post',
      path: '/api/option/invoice/update/:time',
      summary: 'Rebuild a month’s statements',
      access: 'root',
      params: invoiceMonthParam,
    },
  ],
};
