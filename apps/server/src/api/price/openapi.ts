import {
  createOwnedByBody,
  deletePricesBody,
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
import { editedListOperations } from '../openapi/edited-list.js';
import type { ResourceOperations } from '../openapi/operation.js';

/** An update may leave out `model`: the stored name in the path is kept. */
const priceUpdateBody = priceFieldsBody.extend({ model: priceModelField.optional() });

/** A bare array of prices, or the update service's `{data: [...]}`. */
const syncBody = z.union([syncPricesBody, z.object({ data: syncPricesBody })]);

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
    ...editedListOperations({
      base: '/api/model_ownedby/',
      one: 'a model owner',
      many: 'the model owners',
      access: 'admin',
      listAccess: 'public',
      create: createOwnedByBody,
      update: updateOwnedByBody,
    }),
    ...editedListOperations({
      base: '/api/model_info/',
      one: 'a model information entry',
      many: 'the model information entries',
      access: 'admin',
      listAccess: 'public',
      create: modelInfoBody,
      update: updateModelInfoBody,
    }),
  ],
};
