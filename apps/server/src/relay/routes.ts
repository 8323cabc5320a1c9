import type { RelayFront, RelayHttpReply, RelayHttpRequest } from '../http/relay-front.js';
import { AppError } from '../platform/errors.js';
import { primaryGroupOf } from './access/keys.js';
import { admitRelayRequest, relayRequest } from './exchange/pipeline.js';
import type { Endpoint, RelayDeps } from './exchange/types.js';
import type { InFlightRequests } from './in-flight.js';
import { RECRAFT_ROUTE_PREFIX, recraftToolEndpoints } from './providers/recraft/endpoints.js';
import { surfaceErrors } from './surfaces/errors.js';
import {
  anthropicKey as anthropicKeyOf,
  countAnthropicTokens,
  gateNativeSurfaces,
  geminiKey,
  surfaceEndpoints,
} from './surfaces/native.js';
import { endpoints, rerankEndpoint } from './surfaces/openai.js';

const CREATED = 1677649963;

/** The error format of a relay path: every route declares its surface's. */
function rendererOf(path: string) {
  if (path === rerankEndpoint.path) return surfaceErrors.rerank;
  if (path.startsWith('/claude/') || path.startsWith('/v1/messages')) return surfaceErrors.anthropic;
  if (path.startsWith('/gemini/')) return surfaceErrors.gemini;
  return surfaceErrors.openAi;
}

/** The relay's surfaces, served by the relay front (http/relay-front.ts), not by Fastify. */
export function relayRoutes(
  front: RelayFront,
  deps: RelayDeps,
  ownerOf: (model: string) => string,
  inFlight: InFlightRequests,
): void {
  // Paths under these that match no route get a 404 in the surface's format.
  front.surface('/v1/', surfaceErrors.openAi);
  front.surface('/v1/messages/', surfaceErrors.anthropic);
  front.surface('/dashboard/', surfaceErrors.openAi);
  front.surface('/claude/', surfaceErrors.anthropic);
  front.surface('/gemini/', surfaceErrors.gemini);
  front.surface(`${RECRAFT_ROUTE_PREFIX}/`, surfaceErrors.openAi);
  gateNativeSurfaces(front, deps.options);

  const relay = (endpoint: Endpoint) => (request: RelayHttpRequest, reply: RelayHttpReply) =>
    inFlight.track(relayRequest(deps, endpoint, request, reply), () => reply.raw.destroy());
  // The key is checked from the headers before the body is read: an unknown caller is refused at once.
  for (const endpoint of [...endpoints, ...surfaceEndpoints]) {
    front.route(
      'POST',
      endpoint.path,
      {
        render: rendererOf(endpoint.path),
        body: endpoint.body,
        admit: (request) => admitRelayRequest(deps, endpoint, request),
      },
      relay(endpoint),
    );
  }
  // Recraft's routes: image generation is the normal image endpoint; its tools go to Recraft channels only.
  const imageGeneration = endpoints.find((endpoint) => endpoint.path === '/v1/images/generations');
  for (const endpoint of [...(imageGeneration ? [imageGeneration] : []), ...recraftToolEndpoints]) {
    front.route(
      'POST',
      `${RECRAFT_ROUTE_PREFIX}${endpoint.path}`,
      {
        render: surfaceErrors.openAi,
        body: endpoint.body,
        admit: (request) => admitRelayRequest(deps, endpoint, request),
      },
      relay(endpoint),
    );
  }

  const get = (path: string, handler: (request: RelayHttpRequest) => Promise<unknown>) =>
    front.route('GET', path, { render: rendererOf(path) }, handler);

  // Authenticated before the body is read, like every relay route.
  for (const path of ['/v1/messages/count_tokens', '/claude/v1/messages/count_tokens']) {
    front.route(
      'POST',
      path,
      {
        render: surfaceErrors.anthropic,
        admit: async (request) => {
          await deps.keys.authenticate(anthropicKeyOf(request), request.ip);
        },
      },
      async (request) => countAnthropicTokens(request.body),
    );
  }

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
  const anthropicModels = async (request: RelayHttpRequest) => {
    const models = await visibleModels(anthropicKeyOf(request), request.ip);
    const created = new Date(CREATED * 1000).toISOString();
    return {
      data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: created })),
      has_more: false,
      first_id: models[0] ?? null,
      last_id: models.at(-1) ?? null,
    };
  };
  get('/v1/models', async (request) => {
    if (request.headers['anthropic-version'] && !request.headers.authorization) return anthropicModels(request);
    return { object: 'list', data: (await visibleModels(request.headers.authorization, request.ip)).map(modelObject) };
  });
  get('/claude/v1/models', anthropicModels);

  const geminiModel = (id: string) => ({
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: id,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  });
  get('/gemini/:version/models', async (request) => ({
    models: (await visibleModels(geminiKey(request), request.ip)).map(geminiModel),
  }));
  get('/gemini/:version/models/:model', async (request) => {
    const models = await visibleModels(geminiKey(request), request.ip);
    const id = (request.params as { model: string }).model.replace(/^models\//, '');
    if (!models.includes(id)) throw new AppError('not_found', `models/${id} is not found`);
    return geminiModel(id);
  });

  // A model a channel lists only by a wildcard (`gpt-4*`) is in no list, but can be asked for by name.
  const reachable = async (authorization: string | undefined, ip: string, model: string) => {
    const caller = await deps.keys.authenticate(authorization, ip);
    const rule = caller.setting.limits.limit_model_setting;
    if (rule.enabled && !rule.models.includes(model)) return false;
    const groups = [primaryGroupOf(caller), caller.token.backup_group].filter(Boolean);
    return groups.some((group) => deps.router.serves(group, model));
  };
  get('/v1/models/:model', async (request) => {
    const { model } = request.params as { model: string };
    if (!(await reachable(request.headers.authorization, request.ip, model))) {
      throw new AppError('not_found', `The model '${model}' does not exist`, {
        details: { code: 'model_not_found', param: 'model' },
      });
    }
    return modelObject(model);
  });
}
