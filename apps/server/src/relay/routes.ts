import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RelayHttpReply, RelayHttpRequest } from '../http/direct-routes.js';
import { type ErrorRenderer, registerErrorRenderer } from '../http/errors.js';
import { AppError } from '../platform/errors.js';
import { primaryGroupOf } from './access/keys.js';
import type { Endpoint } from './exchange/endpoint.js';
import { admitRelayRequest, type RelayDeps, relayRequest } from './exchange/pipeline.js';
import type { InFlightRequests } from './in-flight.js';
import { openAiErrorBody } from './surfaces/errors.js';
import {
  anthropicBinding,
  anthropicKey as anthropicKeyOf,
  countAnthropicTokens,
  geminiBinding,
  geminiKey,
  surfaceEndpoints,
} from './surfaces/native.js';
import { endpoints, rerankEndpoint } from './surfaces/openai.js';

const CREATED = 1677649963;

export function relayRoutes(
  app: FastifyInstance,
  deps: RelayDeps,
  ownerOf: (model: string) => string,
  inFlight: InFlightRequests,
): void {
  // Every request object gets the field, so all keep one shape (set by admitRelayRequest).
  app.decorateRequest('relayCaller', undefined);
  const relay = (endpoint: Endpoint) => (request: RelayHttpRequest, reply: RelayHttpReply) =>
    inFlight.track(relayRequest(deps, endpoint, request, reply), () => reply.raw.destroy());
  // The key is checked from the headers before the body is read: an unknown caller is refused at once.
  const admit = (endpoint: Endpoint) => (request: RelayHttpRequest) => admitRelayRequest(deps, endpoint, request);
  const admitHook = (endpoint: Endpoint) => {
    const check = admit(endpoint);
    return async (request: FastifyRequest) => check(request);
  };
  const route = (scope: FastifyInstance, endpoint: Endpoint) =>
    scope.post(endpoint.path, { onRequest: admitHook(endpoint) }, relay(endpoint));
  // JSON bodies at fixed paths are also served before Fastify (http/direct-routes.ts).
  const routeJson = (endpoint: Endpoint) => {
    route(app, endpoint);
    if (!endpoint.path.includes(':')) app.directRoutes.post(endpoint.path, relay(endpoint), admit(endpoint));
  };
  for (const endpoint of endpoints) if (endpoint.body === 'json') routeJson(endpoint);
  // Forms are kept as raw bytes (within the body limit) and forwarded as received; only the relay's
  // multipart routes accept them.
  void app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    for (const endpoint of endpoints) if (endpoint.body === 'multipart') route(scope, endpoint);
  });
  // OpenAI's envelope like every /v1 route; `detail` too, for clients of the reference's rerank format.
  registerErrorRenderer(rerankEndpoint.path, (error, request) => {
    const body = openAiErrorBody(error, request);
    return { ...body, detail: body.error.message };
  });

  // The native surfaces: each answers errors in its own format.
  for (const endpoint of surfaceEndpoints) routeJson(endpoint);
  const anthropicError: ErrorRenderer = (error, request) =>
    anthropicBinding.translator.errorBody(error.status, `${error.message} (request id: ${request.id})`);
  registerErrorRenderer('/v1/messages', anthropicError);
  registerErrorRenderer('/claude/', anthropicError);
  registerErrorRenderer('/gemini/', (error, request) =>
    geminiBinding.translator.errorBody(error.status, `${error.message} (request id: ${request.id})`),
  );
  // Authenticated before the body is read, like every relay route.
  const countTokens = {
    onRequest: async (request: FastifyRequest) => {
      await deps.keys.authenticate(anthropicKeyOf(request), request.ip);
    },
  };
  app.post('/v1/messages/count_tokens', countTokens, async (request) => countAnthropicTokens(request.body));
  app.post('/claude/v1/messages/count_tokens', countTokens, async (request) => countAnthropicTokens(request.body));

  const visibleModels = async (authorization: string | undefined, ip: string) => {
    const caller = await deps.keys.authenticate(authorization, ip);
    const group = primaryGroupOf(caller);
    const rule = caller.setting.limits.limit_model_setting;
    const models = new Set(deps.router.modelsOf(group));
    if (caller.token.backup_group)
      for (const model of deps.router.modelsOf(caller.token.backup_group)) models.add(model);
    return [...models].filter((model) => !rule.enabled || rule.models.includes(model));
  };
  const modelObject = (id: string) => ({ id, object: 'model', created: CREATED, owned_by: ownerOf(id) });

  // Anthropic's SDK lists models at the same path, with its own headers and shape.
  const anthropicModels = async (request: FastifyRequest) => {
    const models = await visibleModels(anthropicKeyOf(request), request.ip);
    const created = new Date(CREATED * 1000).toISOString();
    return {
      data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: created })),
      has_more: false,
      first_id: models[0] ?? null,
      last_id: models.at(-1) ?? null,
    };
  };
  app.get('/v1/models', async (request) => {
    if (request.headers['anthropic-version'] && !request.headers.authorization) return anthropicModels(request);
    return { object: 'list', data: (await visibleModels(request.headers.authorization, request.ip)).map(modelObject) };
  });
  app.get('/claude/v1/models', anthropicModels);

  const geminiModel = (id: string) => ({
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: id,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  });
  app.get('/gemini/:version/models', async (request) => ({
    models: (await visibleModels(geminiKey(request), request.ip)).map(geminiModel),
  }));
  app.get<{ Params: { version: string; model: string } }>('/gemini/:version/models/:model', async (request) => {
    const models = await visibleModels(geminiKey(request), request.ip);
    const id = request.params.model.replace(/^models\//, '');
    if (!models.includes(id)) throw new AppError('not_found', `models/${id} is not found`);
    return geminiModel(id);
  });

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
