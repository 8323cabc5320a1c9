import {
  deletePricesBody,
  multiplePricesBody,
  PRICE_MODEL_MAX_LENGTH,
  priceBody,
  priceListQuery,
  syncPricesBody,
  syncPricesQuery,
} from '@one-hub/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import { AppError } from '../../platform/errors.js';
import { type AvailableModelSources, availableModelRoutes } from './available-models.js';
import type { PriceService } from './service.js';

/** `*model` in the path: the stored (old) name, URL-encoded, so it may contain "/" and "*". */
function pathModel(request: FastifyRequest): string {
  const raw = (request.params as Record<string, string | undefined>)['*'] ?? '';
  const model = raw.replace(/^\/+/, '');
  if (!model) throw AppError.badRequest('the model name is required in the path', 'model');
  if (model.length > PRICE_MODEL_MAX_LENGTH) {
    throw AppError.badRequest(`must be at most ${PRICE_MODEL_MAX_LENGTH} characters`, 'model');
  }
  return model;
}

/** The body of an update may leave out `model` to keep the name in the path. */
function withDefaultModel(body: unknown, model: string): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'model' in body) return body;
  return { ...body, model };
}

/** A bare array or `{data: [...]}`; anything else is refused before the entries are looked at. */
function syncBody(body: unknown): z.output<typeof syncPricesBody> {
  const list = body && typeof body === 'object' && !Array.isArray(body) && 'data' in body ? body.data : body;
  if (!Array.isArray(list)) throw AppError.badRequest('body must be an array of prices or {"data": [prices]}');
  return parseInput(syncPricesBody, list);
}

export function priceRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; prices: PriceService; availableModels: AvailableModelSources },
): void {
  const { auth, prices } = deps;
  const admin = { onRequest: auth.requireAdmin };

  // Public, and readable from other sites' pages (price widgets, calculators).
  app.get('/api/prices', async (request, reply) => {
    const { type } = parseInput(priceListQuery, request.query, 'query');
    reply.header('access-control-allow-origin', '*');
    return ok(await prices.listWithModelInfo(type));
  });
  app.get('/api/ownedby', async () => ok(await prices.ownedBy()));
  availableModelRoutes(app, { auth, prices, sources: deps.availableModels });

  app.get('/api/prices/model_list', admin, async () => ok(await prices.modelList()));
  // Ours: the served models that only the fallback price covers, for the console's price list.
  app.get('/api/prices/unpriced', admin, async () => ok(await prices.unpriced()));
  app.get('/api/prices/updateService', admin, async () => ok(prices.updateServiceUrl()));
  // The service's list, fetched by the server (the console's page may not reach other sites).
  app.get('/api/prices/updateService/prices', admin, async () => ok(await prices.fetchUpdates()));

  app.post('/api/prices/single', admin, async (request) =>
    ok(await prices.create(parseInput(priceBody, request.body))),
  );
  app.put('/api/prices/single/*', admin, async (request) => {
    const model = pathModel(request);
    return ok(await prices.update(model, parseInput(priceBody, withDefaultModel(request.body, model))));
  });
  app.delete('/api/prices/single/*', admin, async (request) => {
    await prices.delete(pathModel(request));
    return ok();
  });

  app.post('/api/prices/multiple', admin, async (request) =>
    ok(await prices.saveMultiple(parseInput(multiplePricesBody, request.body))),
  );
  app.put('/api/prices/multiple/delete', admin, async (request) =>
    ok(await prices.deleteMultiple(parseInput(deletePricesBody, request.body).models)),
  );
  app.post('/api/prices/sync', admin, async (request) => {
    const { updateMode } = parseInput(syncPricesQuery, request.query, 'query');
    return ok(await prices.sync(updateMode, syncBody(request.body)));
  });
}
