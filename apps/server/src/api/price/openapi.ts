import {
  createOwnedByBody,
  deletePricesBody,
  idParam,
  modelInfoBody,
  multiplePricesBody,
  priceBody,
  priceFieldsBody,
  priceListQuery,
  priceModelField,
  syncPricesBody,
  syncPricesQuery,
  updateModelInfoBody,
  updateOwnedByBody,
} from '@one-hub/contracts';
import { z } from 'zod';
import type { ApiOperation, ResourceOperations } from '../openapi/operation.js';

/** An update may leave out `model`: the stored name in the path is kept. */
const priceUpdateBody = priceFieldsBody.extend({ model: priceModelField.optional() });

/** A bare array of prices, or the update service's `{data: [...]}`. */
const syncBody = z.union([syncPricesBody, z.object({ data: syncPricesBody })]);

/** `/api/model_ownedby/` and `/api/model_info/` share five routes: a public list, the rest for admins. */
function adminEditedList(base: string, noun: string, create: z.ZodType, update: z.ZodType): ApiOperation[] {
  return [
    { method: 'get', path: base, summary: `List the ${noun}s`, access: 'public' },
    { method: 'get', path: `${base}:id`, summary: `Read a ${noun}`, access: 'admin', params: idParam },
    { method: 'post', path: base, summary: `Create a ${noun}`, access: 'admin', body: create },
    { method: 'put', path: base, summary: `Update a ${noun}`, access: 'admin', body: update },
    { method: 'delete', path: `${base}:id`, summary: `Delete a ${noun}`, access: 'admin', params: idParam },
  ];
}

export const priceOperations: ResourceOperations = {
  tag: 'Prices',
  description: 'Model prices, the models each group may call, model owners and model information.',
  operations: [
    {
      method: 'get',
      path: '/api/prices',
      summary: 'The price list (public, any origin)',
      access: 'public',
      query: priceListQuery,
    },
    { method: 'get', path: '/api/ownedby', summary: 'The model owners by channel type', access: 'public' },
    {
      method: 'get',
      path: '/api/available_model',
      summary: 'The models callers may use, with owner and price',
      description: 'A signed-in caller also sees the models of their own group.',
      access: 'optional',
    },
    { method: 'get', path: '/api/prices/model_list', summary: 'Every model the channels serve', access: 'admin' },
    {
      method: 'get',
      path: '/api/prices/unpriced',
      summary: 'Served models only the fallback price covers',
      access: 'admin',
    },
    { method: 'get', path: '/api/prices/updateService', summary: 'The price update service’s URL', access: 'admin' },
    {
      method: 'get',
      path: '/api/prices/updateService/prices',
      summary: 'The update service’s price list, fetched by the server',
      access: 'admin',
    },
    { method: 'post', path: '/api/prices/single', summary: 'Add a price', access: 'admin', body: priceBody },
    {
      method: 'put',
      path: '/api/prices/single/*',
      wildcardName: 'model',
      summary: 'Update a price (its stored model name in the path)',
      description: 'The model name is URL-encoded and may contain `/`; the body may leave out `model` to keep it.',
      access: 'admin',
      body: priceUpdateBody,
    },
    {
      method: 'delete',
      path: '/api/prices/single/*',
      wildcardName: 'model',
      summary: 'Delete a price',
      access: 'admin',
    },
    {
      method: 'post',
      path: '/api/prices/multiple',
      summary: 'Save many prices',
      access: 'admin',
      body: multiplePricesBody,
    },
    {
      method: 'put',
      path: '/api/prices/multiple/delete',
      summary: 'Delete many prices',
      access: 'admin',
      body: deletePricesBody,
    },
    {
      method: 'post',
      path: '/api/prices/sync',
      summary: 'Sync prices from a list',
      access: 'admin',
      query: syncPricesQuery,
      body: syncBody,
    },
    ...adminEditedList('/api/model_ownedby/', 'model owner', createOwnedByBody, updateOwnedByBody),
    ...adminEditedList('/api/model_info/', 'model information entry', modelInfoBody, updateModelInfoBody),
  ],
};
