import { eventData, SseSplitter } from '../../transport/sse.js';
import type {
  AdapterContext,
  ChatAdapter,
  ChatChunk,
  ChatCompletion,
  ChatRequest,
  ChatUsage,
  Json,
  StreamDecoder,
  StreamEncoder,
  SurfaceTranslator,
  UpstreamErrorInfo,
} from '../types.js';
import { isRecord, upstreamObject } from '../values.js';
import { callHeaders, extendOpenAiBody, resolveOpenAiTarget } from './request.js';

/**
 * OpenAI's own format on both sides of the translation contract: the adapter for OpenAI and
 * every compatible vendor when a translated surface (Anthropic, Gemini) calls them, and the
 * identity surface for `/v1/chat/completions` clients reaching a translated upstream.
 */

/** The message of an `{"error": …}` body, or undefined. */
export function openAiErrorMessage(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const { error } = value;
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return undefined;
}

export function parseOpenAiError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    const error = isRecord(parsed) ? parsed.error : undefined;
    if (isRecord(error)) {
      return {
        status,
        message: typeof error.message === 'string' ? error.message : JSON.stringify(error),
        ...(typeof error.type === 'string' ? { type: error.type } : {}),
        ...(typeof error.code === 'string' ? { code: error.code } : {}),
      };
    }
    const message =
      openAiErrorMessage(parsed) ??
      (isRecord(parsed) && typeof parsed.message === 'string' ? parsed.message : undefined);
    if (message) return { status, message };
  } catch {
    // Not JSON: the text is the message.
  }
  return { status, message: text.trim().slice(0, 500) || `HTTP ${status}` };
}

export const openAiAdapter: ChatAdapter = {
  format: 'openai',
  speaksOpenAi: true,
  async buildChat(request: ChatRequest, context: AdapterContext) {
    // Fields other formats carry that OpenAI refuses: top_k (Anthropic, Gemini) and Gemini's
    // thought signatures on tool calls.
    const { top_k: _topK, ...rest } = request;
    const messages = rest.messages.map((message) =>
      message.tool_calls
        ? {
            ...message,
            tool_calls: message.tool_calls.map(({ id, type, function: call }) => ({ id, type, function: call })),
          }
        : message,
    );
    const channel = { type: context.channelType, key: context.key, other: context.other, plugin: context.plugin };
    const path = '/v1/chat/completions';
    const target = await resolveOpenAiTarget(channel, context.baseUrl, path, context.upstreamModel);
    if (!target) throw new Error(`the channel does not serve ${path}`);
    const body: Json = { ...rest, messages, model: target.model, stream: context.stream };
    if (context.stream) {
      body.stream_options = { include_usage: true };
    } else {
      delete body.stream_options;
    }
    extendOpenAiBody(channel, path, body);
    return {
      url: target.url,
      headers: callHeaders(context.headers, 'application/json', target.headers),
      body: JSON.stringify(body),
    };
  },
  parseChat(body) {
    const parsed = upstreamObject(body, 'answer');
    if (!Array.isArray(parsed.choices)) {
      throw new Error(openAiErrorMessage(parsed) ?? "the upstream's answer has no choices");
    }
    return parsed as unknown as ChatCompletion;
  },
  decodeStream(): StreamDecoder {
    const splitter = new SseSplitter();
    const chunksOf = (events: string[]) => {
      const chunks: ChatChunk[] = [];
      for (const event of events) {
        const data = eventData(event);
        if (data === undefined || data === '[DONE]') continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(data);
        } catch {
          continue;
        }
        const failure = openAiErrorMessage(parsed);
        if (failure) throw new Error(failure);
        if (isRecord(parsed) && Array.isArray(parsed.choices)) chunks.push(parsed as unknown as ChatChunk);
      }
      return chunks;
    };
    return {
      push: (bytes) => chunksOf(splitter.push(bytes)),
      end: () => chunksOf(splitter.finish()),
    };
  },
  parseError: parseOpenAiError,
};

/** Chat completions clients: the request is already canonical; the answer goes back as it is. */
export const openAiSurface: SurfaceTranslator = {
  toChat(body) {
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      throw new Error('messages: a non-empty list of messages is required');
    }
    return body as ChatRequest;
  },
  fromChat: (completion) => completion as unknown as Json,
  encodeStream: () => openAiStreamEncoder(true),
  errorBody: (_status, message, type) => ({
    error: { message, type: type ?? 'upstream_error', param: null, code: null },
  }),
};

/**
 * OpenAI's event stream; the usage chunk reaches the client only when it asked for usage
 * (`stream_options.include_usage`), as OpenAI itself does.
 */
export function openAiStreamEncoder(includeUsage: boolean): StreamEncoder {
  return {
    push(chunk) {
      if (chunk.usage && !includeUsage) {
        if (chunk.choices.length === 0) return '';
        const { usage: _notAsked, ...rest } = chunk;
        return `data: ${JSON.stringify(rest)}\n\n`;
      }
      return `data: ${JSON.stringify(chunk)}\n\n`;
    },
    end: (_usage: ChatUsage | undefined) => 'data: [DONE]\n\n',
  };
}
