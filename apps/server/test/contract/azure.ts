import { providerType } from '../../src/domain/channel-types/registry.js';
import { openAiChunks, openAiCompletion, openAiResponse, readOpenAiBody } from './openai.js';
import { type ErrorKind, type Json, json, type ProviderEntry, type Reply, type Responder } from './scenario-mock.js';

/**
 * Azure OpenAI (channel type `azure`) as Microsoft documents it: chat at
 * `/openai/deployments/{deployment}/chat/completions?api-version=…` with an `api-key` header (a
 * bearer key alone is refused), OpenAI's body and answers plus content-filter results (a stream
 * opens with a chunk holding only `prompt_filter_results`). The Responses API has no deployment in
 * its path: `/openai/responses?api-version=…` or the v1 `/openai/v1/responses`, the deployment
 * named by the body's `model`; the v1 API's chat is `/openai/v1/chat/completions` likewise (channel type `azure-v1`).
 * Errors are `{"error": {"code", "message"}}`.
 */

const KEY = 'azure-contract-resource-key-0123';
const API_VERSION = '2024-10-21';

const FILTERED_NONE = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};

function azureError(kind: ErrorKind): Reply {
  if (kind === 'auth') {
    return json(401, {
      error: {
        code: '401',
        message:
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      },
    });
  }
  if (kind === 'rate') {
    return json(
      429,
      {
        error: {
          code: '429',
          message: `Requests to the ChatCompletions_Create Operation under Azure OpenAI API version ${API_VERSION} have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 10 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.`,
        },
      },
      { 'retry-after': '10' },
    );
  }
  return json(500, {
    error: {
      code: 'InternalServerError',
      message: 'The service is temporarily unable to process your request. Please try again later.',
    },
  });
}

const notFound = () => json(404, { error: { code: '404', message: 'Resource not found' } });

function azureResponder(): Responder {
  return {
    read(request) {
      if (request.headers['api-key'] !== KEY) return azureError('auth');
      // The v1 API (`/openai/v1/…`) takes no api-version; it names the deployment in the body's model.
      if (request.path === '/openai/v1/chat/completions') return readOpenAiBody(request.body, 'chat');
      if (!request.query.get('api-version') && request.path !== '/openai/v1/responses') {
        return json(404, { error: { code: '404', message: 'Resource not found' } });
      }
      const deployment = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(request.path);
      if (deployment) return readOpenAiBody(request.body, 'chat', decodeURIComponent(deployment[1] ?? ''));
      if (request.path === '/openai/responses' || request.path === '/openai/v1/responses') {
        return readOpenAiBody(request.body, 'responses');
      }
      return notFound();
    },
    whole(answer, call) {
      if (call.api === 'responses') return openAiResponse(answer);
      const completion = openAiCompletion(answer);
      const choices = (completion.choices as Json[]).map((choice) => ({
        ...choice,
        content_filter_results: FILTERED_NONE,
      }));
      return {
        ...completion,
        choices,
        prompt_filter_results: [{ prompt_index: 0, content_filter_results: FILTERED_NONE }],
      };
    },
    stream(answer, call) {
      if (call.api === 'responses') throw new Error('streamed Responses answers are not part of the contract suite');
      const frames = openAiChunks(answer, call.flags?.includeUsage === true);
      const filters = Buffer.from(
        `data: ${JSON.stringify({
          choices: [],
          created: 0,
          id: '',
          model: '',
          object: '',
          prompt_filter_results: [{ prompt_index: 0, content_filter_results: FILTERED_NONE }],
        })}\n\n`,
      );
      return { contentType: 'text/event-stream', ...frames, head: [filters, ...frames.head] };
    },
    error: (kind) => azureError(kind),
  };
}

const AZURE_USAGE = {
  cacheWrite: 'Azure OpenAI reports usage as OpenAI does: cache reads only, no cache writes',
  reasoning: true,
  audio: true,
} as const;

export const azureProvider: ProviderEntry = {
  name: 'Azure OpenAI',
  type: providerType('azure'),
  model: 'gpt-4.1',
  setup: () => ({
    responder: azureResponder(),
    channel: (url) => ({ key: KEY, base_url: url, other: API_VERSION }),
  }),
  authStatus: 502,
  usage: AZURE_USAGE,
};

/** Azure OpenAI's v1 API (channel type `azure-v1`): `/openai/v1/chat/completions`, the deployment in `model`. */
export const azureV1Provider: ProviderEntry = {
  name: 'Azure OpenAI (v1 API)',
  type: providerType('azure-v1'),
  model: 'gpt-4.1',
  setup: () => ({ responder: azureResponder(), channel: (url) => ({ key: KEY, base_url: url }) }),
  authStatus: 502,
  usage: AZURE_USAGE,
};
