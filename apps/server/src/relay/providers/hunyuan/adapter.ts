import { openAiAdapter } from '../openai/adapter.js';
import { answerReadersByKey } from '../openai/answers-by-key.js';
import type { AdapterContext, ChatAdapter } from '../types.js';
import { hunyuanStreamDecoder, parseHunyuanChat } from './answer.js';
import { hunyuanChatBody } from './chat.js';
import { hunyuanEmbeddings } from './embed.js';
import { hunyuanErrorStatus, parseHunyuanError } from './errors.js';
import { compatibleBase, hunyuanCredentials, tencentCall } from './request.js';

/**
 * Tencent Hunyuan (channel type `hunyuan`). `SecretId|SecretKey` keys call the native API
 * (`ChatCompletions`, `GetEmbedding`) signed with TC3-HMAC-SHA256 (chat.ts, answer.ts, embed.ts);
 * a single API key calls the OpenAI-compatible API, through OpenAI's own adapter with that
 * address. Native errors come with HTTP 200 as `Response.Error` (errors.ts).
 */

/** OpenAI's adapter pointed at Hunyuan's OpenAI-compatible API (no type: OpenAI's layout, bearer key). */
const compatible = (context: AdapterContext): AdapterContext => ({
  ...context,
  channelType: undefined,
  baseUrl: compatibleBase(context),
});

export const hunyuanAdapter: ChatAdapter = {
  format: 'hunyuan',
  endpoints: { '/v1/embeddings': hunyuanEmbeddings },
  buildChat(request, context) {
    const credentials = hunyuanCredentials(context.key);
    if (!credentials) return openAiAdapter.buildChat(request, compatible(context));
    const body = hunyuanChatBody(request, context.upstreamModel, context.stream);
    return tencentCall(context, credentials, 'ChatCompletions', body);
  },
  errorStatus: hunyuanErrorStatus,
  ...answerReadersByKey(hunyuanCredentials, { parseChat: parseHunyuanChat, decodeStream: hunyuanStreamDecoder }),
  parseError: parseHunyuanError,
};
