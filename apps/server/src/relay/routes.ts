import type { FastifyInstance } from 'fastify';
import { AppError } from '../platform/errors.js';
import { countChatPromptTokens, countInputTokens, estimateChatPromptTokens, estimateInputTokens } from './metering.js';
import { type Endpoint, type RelayDeps, relayRequest } from './pipeline.js';

const endpoints: Endpoint[] = [
  {
    path: '/v1/chat/completions',
    streamable: true,
    estimatePrompt: (body) => estimateChatPromptTokens(body),
    countPrompt: (body) => countChatPromptTokens(body),
  },
  {
    path: '/v1/completions',
    streamable: true,
    estimatePrompt: (body) => estimateInputTokens(body.prompt),
    countPrompt: (body) => countInputTokens(body.prompt),
  },
  {
    path: '/v1/embeddings',
    streamable: false,
    estimatePrompt: (body) => estimateInputTokens(body.input),
    countPrompt: (body) => countInputTokens(body.input),
  },
  {
    path: '/v1/moderations',
    streamable: false,
    estimatePrompt: (body) => estimateInputTokens(body.input),
    countPrompt: (body) => countInputTokens(body.input),
  },
];

const CREATED = 1677649963;

export function relayRoutes(app: FastifyInstance, deps: RelayDeps, ownerOf: (model: string) => string): void {
  for (const endpoint of endpoints) {
    app.post(endpoint.path, (request, reply) => relayRequest(deps, endpoint, request, reply));
  }

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
