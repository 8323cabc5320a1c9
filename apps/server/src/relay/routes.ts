import type { FastifyInstance } from 'fastify';
import { registerErrorRenderer } from '../http/errors.js';
import { AppError } from '../platform/errors.js';
import type { Endpoint } from './endpoint.js';
import { endpoints, rerankEndpoint } from './endpoints.js';
import { type RelayDeps, relayRequest } from './pipeline.js';

const CREATED = 1677649963;

export function relayRoutes(app: FastifyInstance, deps: RelayDeps, ownerOf: (model: string) => string): void {
  const route = (scope: FastifyInstance, endpoint: Endpoint) =>
    scope.post(endpoint.path, (request, reply) => relayRequest(deps, endpoint, request, reply));
  for (const endpoint of endpoints) if (endpoint.body === 'json') route(app, endpoint);
  // Forms are kept as raw bytes (within the body limit) and forwarded as received; only the relay's
  // multipart routes accept them.
  void app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    for (const endpoint of endpoints) if (endpoint.body === 'multipart') route(scope, endpoint);
  });
  registerErrorRenderer(rerankEndpoint.path, (error, request) => ({
    detail: `${error.message} (request id: ${request.id})`,
  }));

  const visibleModels = async (authorization: string | undefined, ip: string) => {
    const caller = await deps.keys.authenticate(authorization, ip);
    const group = caller.token.group || caller.user.group;
    const rule = caller.setting.limits.limit_model_setting;
    const models = new Set(deps.router.modelsOf(group));
    if (caller.token.backup_group)
      for (const model of deps.router.modelsOf(caller.token.backup_group)) models.add(model);
    return [...models].filter((model) => !rule.enabled || rule.models.includes(model));
  };
  const modelObject = (id: string) => ({ id, object: 'model', created: CREATED, owned_by: ownerOf(id) });

  app.get('/v1/models', async (request) => ({
    object: 'list',
    data: (await visibleModels(request.headers.authorization, request.ip)).map(modelObject),
  }));

  app.get<{ Params: { model: string } }>('/v1/models/:model', async (request) => {
    const models = await visibleModels(request.headers.authorization, request.ip);
    if (!models.includes(request.params.model)) {
      throw new AppError('not_found', `The model '${request.params.model}' does not exist`, {
        details: { code: 'model_not_found', param: 'model' },
      });
    }
    return modelObject(request.params.model);
  });
}
