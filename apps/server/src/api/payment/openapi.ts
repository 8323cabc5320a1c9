import {
  createOrderBody,
  idParam,
  orderListQuery,
  orderQuoteQuery,
  orderStatusQuery,
  paymentGatewayBody,
  paymentGatewayListQuery,
  updatePaymentGatewayBody,
} from '@one-hub/contracts';
import type { ApiOperation, ResourceOperations } from '../openapi/operation.js';
import { uuidParam } from './routes.js';

/** Gateways call back with any method; GET and POST are the ones they use. */
const notify = (method: 'get' | 'post'): ApiOperation => ({
  method,
  path: '/api/payment/notify/:uuid',
  summary: 'A payment gateway’s callback',
  description:
    'Registered for every method. The body is read as raw bytes and checked against the gateway’s signature; the answer is what the gateway expects.',
  access: 'webhook',
  params: uuidParam,
  answer: { contentTypes: ['*/*'], description: 'The gateway’s expected acknowledgement.' },
});

export const paymentOperations: ResourceOperations = {
  tag: 'Payments',
  description: 'Payment gateways (administrators; root adds and removes them), top-up orders and gateway callbacks.',
  operations: [
    {
      method: 'get',
      path: '/api/payment/',
      summary: 'List gateways',
      access: 'admin',
      query: paymentGatewayListQuery,
      paged: true,
    },
    { method: 'post', path: '/api/payment/', summary: 'Add a gateway', access: 'root', body: paymentGatewayBody },
    {
      method: 'put',
      path: '/api/payment/',
      summary: 'Update a gateway',
      access: 'admin',
      body: updatePaymentGatewayBody,
    },
    {
      method: 'get',
      path: '/api/payment/order',
      summary: 'List orders',
      access: 'admin',
      query: orderListQuery,
      paged: true,
    },
    { method: 'get', path: '/api/payment/:id', summary: 'Read a gateway', access: 'admin', params: idParam },
    { method: 'delete', path: '/api/payment/:id', summary: 'Remove a gateway', access: 'root', params: idParam },
    { method: 'get', path: '/api/user/payment', summary: 'The gateways a user may pay with', access: 'user' },
    {
      method: 'get',
      path: '/api/user/order/quote',
      summary: 'What a top-up costs with a gateway',
      access: 'user',
      query: orderQuoteQuery,
    },
    {
      method: 'post',
      path: '/api/user/order',
      summary: 'Create a top-up order',
      access: 'user',
      body: createOrderBody,
    },
    {
      method: 'get',
      path: '/api/user/order/status',
      summary: 'Whether an order is paid',
      description:
        'A waiting order answers `{success: false, message: "pending"}` with status 200 (the console polls it).',
      access: 'user',
      query: orderStatusQuery,
    },
    notify('get'),
    notify('post'),
  ],
};
