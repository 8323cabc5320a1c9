import { providerByType } from '../../../domain/channel-types/registry.js';
import { fieldError } from '../../../platform/errors.js';
import { openAiAdapter, parseOpenAiError } from '../openai/adapter.js';
import { answerReadersByKey } from '../openai/answers-by-key.js';
import { resolveOpenAiTarget } from '../openai/request.js';
import type { AdapterContext, ChatAdapter, Json, UpstreamErrorInfo, WholeBodyAdapter } from '../types.js';
import { upstreamObject } from '../values.js';
import { type BaiduTokens, baiduCredentials } from './token.js';
import {
  embeddingsAs,
  parseWenxinChat,
  parseWenxinEmbeddings,
  parseWenxinError,
  wenxinChatBody,
  wenxinEmbeddingsBody,
  wenxinErrorStatus,
  wenxinStreamDecoder,
  wenxinUrl,
} from './wenxin.js';

/**
 * Baidu Qianfan, chosen by the channel's key: a console API key (`bce-v3/ALTAK-…/…`) is a bearer
 * token of the v2 API, which speaks OpenAI's format at `{base}/v2/…`; an application's
 * `APIKey|SecretKey` (the reference's key format) is exchanged for an access token that only the
 * v1 ERNIE API takes (wenxin.ts), at https://aip.baidubce.com unless the channel names a base URL.
 */

/** The v1 API's host, used when the channel's base URL is the type's default (the v2 host). */
const V1_HOST = 'https://aip.baidubce.com';

const v1Host = (context: AdapterContext) =>
  context.channelType !== undefined && context.baseUrl === providerByType(context.channelType)?.defaultBaseUrl
    ? V1_HOST
    : context.baseUrl;

/** Errors of both APIs: v1's `{error_code, error_msg}`, v2's OpenAI-style `{error: {…}}`. */
function parseBaiduError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  return /"error_code"\s*:/.test(text) ? parseWenxinError(status, body) : parseOpenAiError(status, body);
}

function encodingOf(body: Json): 'float' | 'base64' {
  const format = body.encoding_format;
  if (format === undefined || format === null || format === 'float') return 'float';
  if (format === 'base64') return 'base64';
  throw fieldError('encoding_format', '"float" or "base64" is required');
}

/** What `build` saw that `parse` needs, per exchange (the relay passes one context to both). */
const encodings = new WeakMap<AdapterContext, 'float' | 'base64'>();

export function createBaiduAdapter(tokens: BaiduTokens): ChatAdapter {
  const v1Token = async (context: AdapterContext) => {
    const credentials = baiduCredentials(context.key);
    return credentials ? tokens.accessToken(v1Host(context), credentials) : undefined;
  };

  const embeddings: WholeBodyAdapter = {
    async build(body, context) {
      const encoding = encodingOf(body);
      encodings.set(context, encoding);
      const token = await v1Token(context);
      if (token !== undefined) {
        return {
          url: wenxinUrl(v1Host(context), 'embeddings', context.upstreamModel, token),
          headers: { ...context.headers, 'content-type': 'application/json' },
          body: JSON.stringify(wenxinEmbeddingsBody(body)),
        };
      }
      const channel = { type: context.channelType, key: context.key, other: context.other, plugin: context.plugin };
      const target = await resolveOpenAiTarget(channel, context.baseUrl, '/v1/embeddings', context.upstreamModel);
      if (!target) throw new Error('the channel does not serve /v1/embeddings');
      // Vectors come as floats and are encoded here when the client asked for base64.
      const { encoding_format: _format, ...rest } = body;
      return {
        url: target.url,
        headers: { ...context.headers, 'content-type': 'application/json', ...target.headers },
        body: JSON.stringify({ ...rest, model: target.model }),
      };
    },
    errorStatus: wenxinErrorStatus,
    parse(body, context) {
      const encoding = encodings.get(context) ?? 'float';
      if (baiduCredentials(context.key)) return parseWenxinEmbeddings(body, context.upstreamModel, encoding);
      const parsed = upstreamObject(body, 'answer');
      if (!Array.isArray(parsed.data)) throw new Error("the upstream's answer has no data");
      return { ...parsed, data: embeddingsAs(parsed.data, encoding) };
    },
  };

  return {
    format: 'baidu',
    endpoints: { '/v1/embeddings': embeddings },
    async buildChat(request, context) {
      const token = await v1Token(context);
      if (token === undefined) return openAiAdapter.buildChat(request, context);
      return {
        url: wenxinUrl(v1Host(context), 'chat', context.upstreamModel, token),
        headers: { ...context.headers, 'content-type': 'application/json' },
        body: JSON.stringify(wenxinChatBody(request, context.stream)),
      };
    },
    errorStatus: wenxinErrorStatus,
    ...answerReadersByKey(baiduCredentials, { parseChat: parseWenxinChat, decodeStream: wenxinStreamDecoder }),
    parseError: parseBaiduError,
  };
}
