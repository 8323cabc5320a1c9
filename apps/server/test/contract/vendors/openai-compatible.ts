import { providerType } from '../../../src/domain/channel-types/registry.js';
import { DASHSCOPE_API, DASHSCOPE_KEY } from '../../providers/ali/mock-upstream.js';
import { QIANFAN_API_KEY } from '../../providers/baidu/mock-upstream.js';
import {
  ACCOUNT as CLOUDFLARE_ACCOUNT,
  CHAT_MODEL as CLOUDFLARE_MODEL,
} from '../../providers/cloudflare/mock-upstream.js';
import { DATABRICKS_API, DATABRICKS_TOKEN } from '../../providers/databricks/mock-upstream.js';
import type { VendorMockOptions } from '../../providers/openai-vendor/mock-upstream.js';
import { SPARK, SPARK_API } from '../../providers/xunfei/mock-upstream.js';
import { ZHIPU_API, ZHIPU_KEY } from '../../providers/zhipu/mock-upstream.js';
import { openAiChunks, openAiCompletion, readOpenAiBody, type UsageWriter } from '../openai.js';
import {
  type ErrorKind,
  type Json,
  json,
  type ProviderEntry,
  type Reply,
  type Responder,
  type TokenCounts,
  tokensOnly,
} from '../scenario-mock.js';

/**
 * The vendors whose chat is OpenAI's format at addresses and with credentials of their own:
 * DashScope's compatible mode, Zhipu BigModel v4 (a signed JWT), Spark's HTTP API, Databricks
 * serving endpoints, MiniMax, Workers AI's OpenAI-compatible endpoints, and the OpenAI-format APIs
 * of Baidu Qianfan v2 and Tencent Hunyuan (their native APIs have entries of their own). Each one checks its
 * path and credentials as its mock in test/providers does (the same checks, imported), answers
 * OpenAI's bodies and chunks with the usage fields that vendor documents, and refuses in its own
 * documented error format: the relay must read each of those failures the same way.
 */

type Usage = ProviderEntry['usage'];

interface CompatibleVendor {
  name: string;
  type: number;
  model: string;
  channel(url: string): Json;
  /** Where the vendor serves chat and how it checks credentials (its mock's own options). */
  api: Pick<VendorMockOptions, 'chatPaths' | 'authorize' | 'alwaysStreamUsage'>;
  /** The vendor's documented answers to bad credentials, a rate limit and a failure of its own. */
  errors: Record<ErrorKind, Reply>;
  usage: Usage;
  skip?: ProviderEntry['skip'];
}

/** OpenAI's usage object holding only the counts the vendor reports (see `Usage`). */
function usageWriter(usage: Usage): UsageWriter {
  const cached = (usage.cacheRead ?? true) === true;
  const reasoning = usage.reasoning === true;
  const audio = usage.audio === true;
  return (counts: TokenCounts) => {
    const prompt = counts.input + counts.cacheRead + (audio ? counts.audioIn : 0);
    const completion = counts.output + (reasoning ? counts.reasoning : 0) + (audio ? counts.audioOut : 0);
    const promptDetails = {
      ...(cached ? { cached_tokens: counts.cacheRead } : {}),
      ...(audio ? { audio_tokens: counts.audioIn } : {}),
    };
    const completionDetails = {
      ...(reasoning ? { reasoning_tokens: counts.reasoning } : {}),
      ...(audio ? { audio_tokens: counts.audioOut } : {}),
    };
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      ...(Object.keys(promptDetails).length > 0 ? { prompt_tokens_details: promptDetails } : {}),
      ...(Object.keys(completionDetails).length > 0 ? { completion_tokens_details: completionDetails } : {}),
    };
  };
}

function compatibleResponder(vendor: CompatibleVendor): Responder {
  const usageOf = usageWriter(vendor.usage);
  return {
    async read(request) {
      if (request.method !== 'POST' || !vendor.api.chatPaths.includes(request.path)) {
        return json(404, { error: { message: `no route for ${request.method} ${request.path}` } });
      }
      const refused = await vendor.api.authorize({
        path: request.path,
        query: request.query,
        headers: request.headers,
        body: request.body ?? {},
      });
      if (refused) return vendor.errors.auth;
      return readOpenAiBody(request.body, 'chat');
    },
    whole: (answer) => openAiCompletion(answer, usageOf),
    stream(answer, call) {
      const withUsage = call.flags?.includeUsage === true || vendor.api.alwaysStreamUsage === true;
      return { contentType: 'text/event-stream', ...openAiChunks(answer, withUsage, {}, usageOf) };
    },
    error: (kind) => vendor.errors[kind],
  };
}

const entry = (vendor: CompatibleVendor): ProviderEntry => ({
  name: vendor.name,
  type: vendor.type,
  model: vendor.model,
  setup: () => ({ responder: compatibleResponder(vendor), channel: vendor.channel }),
  // A channel's refused credentials are the gateway's failure, not the client's.
  authStatus: 502,
  usage: vendor.usage,
  ...(vendor.skip ? { skip: vendor.skip } : {}),
});

const NO_AUDIO_CHAT = 'the chat models take and give no audio';
const NO_CACHE_WRITES = 'caching is automatic and only cache reads are reported';

export const dashScopeProvider = entry({
  name: 'Alibaba DashScope (compatible mode)',
  type: providerType('ali'),
  model: 'qwen-plus',
  channel: (url) => ({ key: DASHSCOPE_KEY, base_url: url }),
  api: DASHSCOPE_API,
  errors: {
    auth: json(401, {
      error: {
        message: 'Incorrect API key provided. ',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    }),
    rate: json(429, {
      error: {
        message: 'Requests rate limit exceeded, please try again later.',
        type: 'limit_requests',
        param: null,
        code: 'limit_requests',
      },
    }),
    server: json(500, {
      error: {
        message: 'An internal error has occured, please try again later or contact service support.',
        type: 'internal_error',
        param: null,
        code: 'internal_error',
      },
    }),
  },
  usage: {
    cacheWrite: `DashScope: ${NO_CACHE_WRITES}`,
    reasoning: true,
    audio: `qwen-plus: ${NO_AUDIO_CHAT}`,
  },
});

export const zhipuProvider = entry({
  name: 'Zhipu BigModel v4',
  type: providerType('zhipu'),
  model: 'glm-4v-plus',
  channel: (url) => ({ key: `${ZHIPU_KEY.id}.${ZHIPU_KEY.secret}`, base_url: url }),
  api: ZHIPU_API,
  errors: {
    auth: json(401, {
      error: { code: '1002', message: 'Authorization Token非法，请确认Authorization Token正确传递。' },
    }),
    rate: json(429, {
      error: { code: '1302', message: '您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。' },
    }),
    server: json(500, { error: { code: '500', message: '内部错误' } }),
  },
  usage: {
    cacheWrite: `Zhipu: ${NO_CACHE_WRITES}`,
    reasoning: "Zhipu's usage has no reasoning count (thinking is counted in completion_tokens)",
    audio: `GLM-4V: ${NO_AUDIO_CHAT}`,
  },
});

export const sparkProvider = entry({
  name: 'iFlytek Spark (HTTP API)',
  type: providerType('xunfei'),
  model: '4.0Ultra',
  channel: (url) => ({ key: `${SPARK.apiKey}:${SPARK.apiSecret}`, base_url: url }),
  api: SPARK_API,
  errors: {
    auth: json(401, {
      error: { message: 'HMAC signature cannot be verified', type: 'api_error', param: null, code: null },
    }),
    rate: json(429, {
      error: {
        message: 'AppIdQpsOverFlowError: 秒级流控超限。请求并发超过授权路数限制',
        type: 'api_error',
        param: null,
        code: '11202',
      },
    }),
    server: json(500, {
      error: { message: 'EngineInternalError: 服务内部错误', type: 'api_error', param: null, code: '10012' },
    }),
  },
  usage: tokensOnly("Spark's usage is prompt, completion and total tokens only", `Spark: ${NO_AUDIO_CHAT}`),
  skip: {
    image_echo:
      "Spark's chat HTTP API takes text messages only (image understanding is a separate WebSocket API); the README lists no vision for it",
  },
});

const DATABRICKS_USAGE = "a serving endpoint's usage is prompt, completion and total tokens only";

export const databricksProvider = entry({
  name: 'Azure Databricks (serving endpoints)',
  type: providerType('azure-databricks'),
  model: 'databricks-meta-llama-3-3-70b-instruct',
  channel: (url) => ({ key: DATABRICKS_TOKEN, base_url: url }),
  api: DATABRICKS_API,
  errors: {
    auth: json(401, {
      error_code: 'UNAUTHENTICATED',
      message: 'Credential was not sent or was of an unsupported type for this API.',
    }),
    rate: json(429, {
      error_code: 'REQUEST_LIMIT_EXCEEDED',
      message: 'Exceeded workspace rate limit for your endpoint. Please retry after some time.',
    }),
    server: json(500, { error_code: 'INTERNAL_ERROR', message: 'The server encountered an internal error.' }),
  },
  usage: tokensOnly(DATABRICKS_USAGE),
});

const MINIMAX_KEY = 'minimax-contract-key-0c8e';
const minimaxError = (status: number, type: string, message: string) =>
  json(status, { error: { message, type, param: '', code: null } });
const MINIMAX_USAGE = "MiniMax's chat usage is prompt, completion and total tokens";

export const minimaxProvider = entry({
  name: 'MiniMax',
  type: providerType('minimax'),
  model: 'MiniMax-M1',
  channel: (url) => ({ key: MINIMAX_KEY, base_url: url }),
  api: {
    chatPaths: ['/v1/chat/completions'],
    authorize: ({ headers }) => (headers.authorization === `Bearer ${MINIMAX_KEY}` ? undefined : 'login fail'),
  },
  errors: {
    auth: minimaxError(
      401,
      'authorized_error',
      "login fail: Please carry the API secret key in the 'Authorization' field of the request header (1004)",
    ),
    rate: minimaxError(429, 'rate_limit_error', 'rate limit exceeded(RPM) (1002)'),
    server: minimaxError(500, 'api_error', 'unknown error (1000)'),
  },
  usage: tokensOnly(MINIMAX_USAGE, `${MINIMAX_USAGE}; speech is its own T2A API`),
});

const CLOUDFLARE_TOKEN = 'cf-contract-api-token-5d2e';
/** Cloudflare's API envelope, which Workers AI answers failures in. */
const cloudflareError = (status: number, code: number, message: string) =>
  json(status, { success: false, errors: [{ code, message }], messages: [], result: null });
const WORKERS_AI_USAGE = "Workers AI's usage is prompt, completion and total tokens";

export const cloudflareProvider = entry({
  name: 'Cloudflare Workers AI',
  type: providerType('cloudflare'),
  model: CLOUDFLARE_MODEL,
  channel: (url) => ({ key: `${CLOUDFLARE_ACCOUNT}|${CLOUDFLARE_TOKEN}`, base_url: url }),
  api: {
    chatPaths: [`/client/v4/accounts/${CLOUDFLARE_ACCOUNT}/ai/v1/chat/completions`],
    authorize: ({ headers }) =>
      headers.authorization === `Bearer ${CLOUDFLARE_TOKEN}` ? undefined : 'Authentication error',
  },
  errors: {
    auth: cloudflareError(401, 10000, 'Authentication error'),
    rate: cloudflareError(429, 3040, 'Capacity temporarily exceeded, please try again.'),
    server: cloudflareError(500, 3043, 'Internal server error'),
  },
  usage: tokensOnly(WORKERS_AI_USAGE, `${WORKERS_AI_USAGE}; transcription is its own endpoint`),
});

const QIANFAN_USAGE = "Qianfan v2's usage is prompt, completion and total tokens";

export const qianfanV2Provider = entry({
  name: 'Baidu Qianfan v2 (console API key)',
  type: providerType('baidu'),
  model: 'ernie-4.5-turbo-vl-32k',
  channel: (url) => ({ key: QIANFAN_API_KEY, base_url: url }),
  api: {
    chatPaths: ['/v2/chat/completions'],
    authorize: ({ headers }) => (headers.authorization === `Bearer ${QIANFAN_API_KEY}` ? undefined : 'unauthorized'),
  },
  errors: {
    auth: json(401, {
      error: { code: 'invalid_iam_token', message: 'IAM Certification failed', type: 'invalid_request_error' },
      id: 'as-contract01',
    }),
    rate: json(429, {
      error: { code: 'rpm_rate_limit_exceeded', message: 'Rate limit reached for RPM', type: 'rate_limit_exceeded' },
      id: 'as-contract02',
    }),
    server: json(500, {
      error: { code: 'internal_error', message: 'Internal error', type: 'server_error' },
      id: 'as-contract03',
    }),
  },
  usage: tokensOnly(QIANFAN_USAGE, `${QIANFAN_USAGE}, and ERNIE chat takes no audio`),
});

const HUNYUAN_API_KEY = 'sk-hunyuan-contract-61d0';
const hunyuanError = (status: number, type: string, code: string, message: string) =>
  json(status, { error: { message, type, param: null, code } });
const HUNYUAN_USAGE = "Hunyuan's usage is prompt, completion and total tokens";

export const hunyuanCompatibleProvider = entry({
  name: 'Tencent Hunyuan (API key, OpenAI-compatible API)',
  type: providerType('hunyuan'),
  model: 'hunyuan-vision',
  channel: (url) => ({ key: HUNYUAN_API_KEY, base_url: url }),
  api: {
    chatPaths: ['/v1/chat/completions'],
    authorize: ({ headers }) => (headers.authorization === `Bearer ${HUNYUAN_API_KEY}` ? undefined : 'bad key'),
  },
  errors: {
    auth: hunyuanError(401, 'invalid_request_error', 'invalid_api_key', 'Incorrect API key provided.'),
    rate: hunyuanError(429, 'rate_limit_error', 'rate_limit_exceeded', 'Requests rate limit exceeded.'),
    server: hunyuanError(500, 'server_error', 'internal_error', 'Internal error.'),
  },
  usage: tokensOnly(HUNYUAN_USAGE, `${HUNYUAN_USAGE}, and its chat takes no audio`),
});

export const openAiCompatibleProviders: ProviderEntry[] = [
  qianfanV2Provider,
  hunyuanCompatibleProvider,
  dashScopeProvider,
  zhipuProvider,
  sparkProvider,
  databricksProvider,
  minimaxProvider,
  cloudflareProvider,
];
