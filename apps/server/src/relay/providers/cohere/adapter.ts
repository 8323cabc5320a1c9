import type { ChatAdapter } from '../types.js';
import { upstreamObject } from '../values.js';
import { buildCohereChatBody, completionFromCohere } from './chat.js';
import { cohereHeaders, cohereUrl, parseCohereError } from './common.js';
import { cohereEmbeddings } from './embed.js';
import { cohereRerank } from './rerank.js';
import { cohereStreamDecoder } from './stream.js';

/**
 * Cohere (channel type `cohere`, `https://api.cohere.com`, bearer key): chat through the v2 Chat API
 * (chat.ts, stream.ts), `/v1/embeddings` through Embed v2 (embed.ts) and `/v1/rerank` through
 * Rerank v2 (rerank.ts). Errors are Cohere's `{"message": …}` (common.ts).
 */
export const cohereAdapter: ChatAdapter = {
  format: 'cohere',
  endpoints: { '/v1/embeddings': cohereEmbeddings, '/v1/rerank': cohereRerank },
  buildChat(request, context) {
    const body = buildCohereChatBody(request, context.upstreamModel, context.stream);
    return {
      url: cohereUrl(context.baseUrl, 'chat'),
      headers: cohereHeaders(context, context.stream),
      body: JSON.stringify(body),
    };
  },
  parseChat: (body, context) => completionFromCohere(upstreamObject(body, 'answer'), context),
  decodeStream: cohereStreamDecoder,
  parseError: parseCohereError,
};
