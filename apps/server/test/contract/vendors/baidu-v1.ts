import { providerType } from '../../../src/domain/channel-types/registry.js';
import { BAIDU_APP } from '../../providers/baidu/mock-upstream.js';
import {
  type Answer,
  type ErrorKind,
  isRecord,
  type Json,
  json,
  list,
  namesOf,
  type ProviderEntry,
  type Reply,
  type Responder,
  sse,
  type TokenCounts,
  tokensOnly,
} from '../scenario-mock.js';

/**
 * Baidu Qianfan's v1 ERNIE API (wenxinworkshop), reached with an application's `APIKey|SecretKey`
 * (channel type `baidu`): the pair is exchanged at `POST /oauth/2.0/token?grant_type=client_credentials
 * &client_id=…&client_secret=…` for `{access_token, expires_in}`, and each model has its own URL,
 * `/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/<endpoint>?access_token=…`. The body holds
 * `messages` of user, assistant and function turns only (the system text apart, in `system`) and
 * `functions`; the answer is `{id, result, finish_reason, function_call?, usage}`, streamed as
 * events of `{sentence_id, is_end, result}` with the usage on the last. Every failure is HTTP 200
 * with `{error_code, error_msg}`: 110 a bad access token, 18 the QPS limit, 336000 Baidu's own.
 */

const ENDPOINT = 'completions_pro';
const CHAT_PATH = `/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/${ENDPOINT}`;
const ROLES = new Set(['user', 'assistant', 'function']);
const CREATED = 1_750_000_000;

const failure = (code: number, message: string): Reply => json(200, { error_code: code, error_msg: message });

function wenxinError(kind: ErrorKind): Reply {
  if (kind === 'auth') return failure(110, 'Access token invalid or no longer valid');
  if (kind === 'rate') return failure(18, 'Open api qps request limit reached');
  return failure(336000, 'Internal error');
}

/** v1 counts prompt and completion tokens only: cached prompt tokens are plain ones there. */
function wenxinUsage(counts: TokenCounts): Json {
  const prompt = counts.input + counts.cacheRead;
  return { prompt_tokens: prompt, completion_tokens: counts.output, total_tokens: prompt + counts.output };
}

const functionCall = (answer: Answer): Json | undefined =>
  answer.tool
    ? { name: answer.tool.name, arguments: JSON.stringify(answer.tool.arguments), thoughts: 'The weather first.' }
    : undefined;

function wenxinAnswer(answer: Answer): Json {
  const call = functionCall(answer);
  return {
    id: 'as-contract01',
    object: 'chat.completion',
    created: CREATED,
    result: call ? '' : answer.text,
    is_truncated: false,
    need_clear_history: false,
    finish_reason: call ? 'function_call' : 'normal',
    ...(call ? { function_call: call } : {}),
    usage: wenxinUsage(answer.usage),
  };
}

/** One event per piece; the last says `is_end` and carries the usage (and a function call whole). */
function wenxinStream(answer: Answer) {
  const call = functionCall(answer);
  const parts = call ? [''] : answer.pieces;
  const pieces = parts.map((result, index) => {
    const end = index === parts.length - 1;
    return sse({
      id: 'as-contract01',
      object: 'chat.completion',
      created: CREATED,
      sentence_id: index,
      is_end: end,
      is_truncated: false,
      result,
      need_clear_history: false,
      ...(end ? { finish_reason: call ? 'function_call' : 'normal', usage: wenxinUsage(answer.usage) } : {}),
      ...(end && call ? { function_call: call } : {}),
    });
  });
  return { contentType: 'text/event-stream', head: [], pieces, tail: [] };
}

function wenxinResponder(): Responder {
  return {
    side(request) {
      if (request.path !== '/oauth/2.0/token') return undefined;
      const { query } = request;
      const known =
        query.get('grant_type') === 'client_credentials' &&
        query.get('client_id') === BAIDU_APP.apiKey &&
        query.get('client_secret') === BAIDU_APP.secretKey;
      return known
        ? json(200, { access_token: BAIDU_APP.token, expires_in: 2_592_000, scope: 'public' })
        : json(401, { error: 'invalid_client', error_description: 'unknown client id' });
    },
    read(request) {
      if (request.method !== 'POST' || request.path !== CHAT_PATH) {
        return failure(3, `Unsupported openapi method: ${request.path}`);
      }
      if (request.query.get('access_token') !== BAIDU_APP.token) return wenxinError('auth');
      const { body } = request;
      const messages = list(body?.messages);
      if (!body || messages.length === 0 || messages.some((m) => !isRecord(m) || !ROLES.has(String(m.role)))) {
        return failure(336003, 'the messages parameter is invalid');
      }
      const functions = namesOf(body.functions, (fn) => fn.name);
      // v1 takes text only: a message's content is a string, so no image can arrive.
      return { model: 'ERNIE-4.0-8K', stream: body.stream === true, tools: functions, images: 0, api: 'chat' };
    },
    whole: (answer) => wenxinAnswer(answer),
    stream: (answer) => wenxinStream(answer),
    error: (kind) => wenxinError(kind),
  };
}

const ONLY_TOKENS = "v1's usage is prompt, completion and total tokens only";

export const baiduV1Provider: ProviderEntry = {
  name: 'Baidu ERNIE v1 (application key)',
  type: providerType('baidu'),
  model: 'ERNIE-4.0-8K',
  setup: () => ({
    responder: wenxinResponder(),
    channel: (url) => ({ key: `${BAIDU_APP.apiKey}|${BAIDU_APP.secretKey}`, base_url: url }),
  }),
  authStatus: 502,
  usage: tokensOnly(ONLY_TOKENS),
  skip: {
    image_echo:
      "the v1 API takes text messages only (the gateway refuses images for it and the README lists vision for v2 keys); Qianfan v2's entry runs this case",
  },
};
