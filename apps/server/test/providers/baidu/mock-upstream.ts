import type { ServerResponse } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';
import { pieces, sendJson } from '../../mocks/mock-server.js';
import {
  startVendorMock,
  type VendorBehaviour,
  type VendorMock,
  type VendorRequest,
  vector,
} from '../openai-vendor/mock-upstream.js';

/**
 * Baidu Qianfan, both APIs on one host:
 *
 * - v2 (`/v2/chat/completions`, `/v2/embeddings`): OpenAI's format, the console API key
 *   `bce-v3/ALTAK-…/…` as the bearer.
 * - OAuth (`POST /oauth/2.0/token?grant_type=client_credentials&client_id=…&client_secret=…`):
 *   an application's API Key and Secret Key for `{access_token, expires_in}`; wrong ones get 401
 *   `{"error": "invalid_client", "error_description": "unknown client id"}`.
 * - v1 (`/rpc/2.0/ai_custom/v1/wenxinworkshop/{chat|embeddings}/<endpoint>?access_token=…`): the
 *   ERNIE format. A bad token is HTTP 200 with `{"error_code": 110, "error_msg": …}`. Chat needs
 *   `messages` of user/assistant/function only (system apart); answers `{result, usage}` whole or
 *   as events with `is_end`; with `functions` and no function result it answers a
 *   `function_call` of the first. Embeddings take `input` as a list.
 */
export const QIANFAN_API_KEY = 'bce-v3/ALTAK-qf1234/5678abcdef';
export const BAIDU_APP = {
  apiKey: 'baidu-app-key-1a2b',
  secretKey: 'baidu-secret-key-3c4d',
  token: '24.tok-e5f6.2592000',
};

export type BaiduMock = VendorMock & { tokenRequests(): number };

function v1(request: VendorRequest, response: ServerResponse, behaviour: VendorBehaviour) {
  if (request.query.get('access_token') !== BAIDU_APP.token) {
    return sendJson(response, 200, { error_code: 110, error_msg: 'Access token invalid or no longer valid' });
  }
  const { failWith } = behaviour;
  if (failWith) return sendJson(response, failWith.status, failWith.body);
  const usage = {
    prompt_tokens: behaviour.usage.prompt,
    completion_tokens: behaviour.usage.completion,
    total_tokens: behaviour.usage.prompt + behaviour.usage.completion,
  };
  const body = request.body;
  if (request.path.includes('/wenxinworkshop/embeddings/')) {
    if (!Array.isArray(body.input))
      return sendJson(response, 200, { error_code: 336003, error_msg: 'input must be a list' });
    return sendJson(response, 200, {
      id: 'as-emb-1',
      object: 'embedding_list',
      created: 1_700_000_000,
      data: body.input.map((_text, index) => ({ object: 'embedding', embedding: vector(index), index })),
      usage: { prompt_tokens: behaviour.usage.prompt, total_tokens: behaviour.usage.prompt },
    });
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const roles = new Set(['user', 'assistant', 'function']);
  if (messages.length === 0 || messages.some((m) => !isRecord(m) || !roles.has(String(m.role)))) {
    return sendJson(response, 200, { error_code: 336003, error_msg: 'the messages parameter is invalid' });
  }
  const last = messages.at(-1) as Json;
  const fn = Array.isArray(body.functions) && last.role !== 'function' ? body.functions[0] : undefined;
  const call = isRecord(fn)
    ? { name: String(fn.name), arguments: '{"city":"Paris"}', thoughts: 'weather first' }
    : undefined;
  const base = { id: 'as-chat-1', object: 'chat.completion', created: 1_700_000_000 };
  if (body.stream !== true) {
    return sendJson(response, 200, {
      ...base,
      result: call ? '' : behaviour.reply,
      is_truncated: false,
      need_clear_history: false,
      ...(call ? { function_call: call, finish_reason: 'function_call' } : { finish_reason: 'normal' }),
      usage,
    });
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const parts = call ? [''] : pieces(behaviour.reply, behaviour.chunks);
  for (const [index, part] of parts.entries()) {
    const end = index === parts.length - 1;
    const event = {
      ...base,
      sentence_id: index,
      is_end: end,
      result: part,
      ...(end && call ? { function_call: call } : {}),
      ...(end ? { finish_reason: call ? 'function_call' : 'normal', usage } : {}),
    };
    response.write(`data: ${JSON.stringify(event)}\n\n`);
  }
  response.end();
}

export async function startBaiduMock(): Promise<BaiduMock> {
  let tokenRequests = 0;
  const mock = await startVendorMock({
    chatPaths: ['/v2/chat/completions'],
    embeddingsPath: '/v2/embeddings',
    errorBody: (status, message) => ({
      error: {
        code: status === 401 ? 'invalid_iam_token' : 'invalid_argument',
        message,
        type: 'invalid_request_error',
      },
    }),
    authorize: ({ headers }) =>
      headers.authorization === `Bearer ${QIANFAN_API_KEY}` ? undefined : 'IAM Certification failed',
    route(request, response, state) {
      if (request.path === '/oauth/2.0/token') {
        tokenRequests += 1;
        const { query } = request;
        const good =
          query.get('grant_type') === 'client_credentials' &&
          query.get('client_id') === BAIDU_APP.apiKey &&
          query.get('client_secret') === BAIDU_APP.secretKey;
        if (!good) sendJson(response, 401, { error: 'invalid_client', error_description: 'unknown client id' });
        else sendJson(response, 200, { access_token: BAIDU_APP.token, expires_in: 2_592_000, scope: 'public' });
        return true;
      }
      if (request.path.startsWith('/rpc/2.0/ai_custom/v1/wenxinworkshop/')) {
        v1(request, response, state.behaviour);
        return true;
      }
      return false;
    },
  });
  return Object.assign(mock, { tokenRequests: () => tokenRequests });
}
