import { fieldError } from '../../../platform/errors.js';
import { eventData, SseSplitter } from '../../transport/sse.js';
import { float32Base64 } from '../cohere/embed.js';
import type {
  AdapterContext,
  ChatChunk,
  ChatCompletion,
  ChatMessage,
  ChatRequest,
  ChatUsage,
  FinishReason,
  Json,
  StreamDecoder,
  UpstreamErrorInfo,
} from '../types.js';
import { isRecord, upstreamObject } from '../values.js';

/**
 * Baidu's v1 ERNIE API (wenxinworkshop), the one application credentials (`APIKey|SecretKey`)
 * reach: one URL per model, `{host}/rpc/2.0/ai_custom/v1/wenxinworkshop/{chat|embeddings}/{endpoint}`
 * with the access token in the query. Pure translations between it and OpenAI's shapes.
 */

/** The v1 endpoint of each model name (Baidu's documented ones); other names are used as they are. */
const ENDPOINTS: Record<string, string> = {
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-4.0-Turbo-8K': 'ernie-4.0-turbo-8k',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot': 'completions',
  'ERNIE-3.5-128K': 'ernie-3.5-128k',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Lite-8K': 'ernie-lite-8k',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'ERNIE-Character-8K': 'ernie-char-8k',
  'ERNIE-Functions-8K': 'ernie-func-8k',
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

export function wenxinUrl(host: string, kind: 'chat' | 'embeddings', model: string, token: string): string {
  const endpoint = encodeURIComponent(ENDPOINTS[model] ?? model);
  return `${host}/rpc/2.0/ai_custom/v1/wenxinworkshop/${kind}/${endpoint}?access_token=${encodeURIComponent(token)}`;
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  const parts = content.filter((part) => part.type === 'text').map((part) => part.text);
  if (parts.length !== content.length) {
    throw fieldError('messages', "Baidu's v1 API takes text only; use a bce-v3 API key (v2 API) for images");
  }
  return parts.join('\n');
}

/** OpenAI's chat request as v1's body: system text apart, tool calls as `function_call`, tools as `functions`. */
export function wenxinChatBody(request: ChatRequest, stream: boolean): Json {
  const system: string[] = [];
  const messages: Json[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(textOf(message.content));
    } else if (message.role === 'tool') {
      messages.push({
        role: 'function',
        name: message.name ?? message.tool_call_id ?? 'tool',
        content: textOf(message.content),
      });
    } else if (message.role === 'assistant' && message.tool_calls?.length) {
      const call = message.tool_calls[0];
      messages.push({
        role: 'assistant',
        content: textOf(message.content),
        ...(call ? { function_call: { name: call.function.name, arguments: call.function.arguments } } : {}),
      });
    } else {
      messages.push({ role: message.role, content: textOf(message.content) });
    }
  }
  const body: Json = { messages, stream };
  if (system.length > 0) body.system = system.join('\n');
  if (request.temperature !== undefined) body.temperature = Math.min(1, Math.max(0.01, request.temperature));
  if (request.top_p !== undefined) body.top_p = request.top_p;
  // v1's repetition penalty is in [1, 2]; OpenAI's frequency penalty in [-2, 2].
  if (request.frequency_penalty !== undefined) {
    body.penalty_score = Math.min(2, Math.max(1, request.frequency_penalty));
  }
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stop?.length) body.stop = stop;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
  if (request.user) body.user_id = request.user;
  if (request.tools?.length) {
    body.functions = request.tools.map(({ function: fn }) => ({
      name: fn.name,
      description: fn.description ?? '',
      parameters: fn.parameters ?? { type: 'object', properties: {} },
    }));
  }
  return body;
}

/** v1's `{error_code, error_msg}` (sent with HTTP 200), as the HTTP status it stands for. */
export function wenxinErrorStatus(body: Buffer): number | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.error_code !== 'number' || parsed.error_code === 0) return undefined;
  return statusOfCode(parsed.error_code);
}

/** Baidu's documented error codes by what they mean for the caller. */
function statusOfCode(code: number): number {
  // Bad, expired or unauthorised credentials.
  if ([6, 13, 14, 100, 110, 111].includes(code)) return 401;
  // QPS, daily, cluster and token-rate limits.
  if ([4, 17, 18, 19, 336501, 336502, 336503, 336504, 336505, 336507].includes(code)) return 429;
  if (code === 336000 || code === 1 || code === 2) return 500;
  return 400;
}

export function parseWenxinError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed) && typeof parsed.error_code === 'number') {
      const code = parsed.error_code;
      const mapped = status >= 200 && status < 300 ? statusOfCode(code) : status;
      const message = typeof parsed.error_msg === 'string' ? parsed.error_msg : `error ${code}`;
      const type = mapped === 401 ? 'authentication_error' : mapped === 429 ? 'rate_limit_error' : undefined;
      return { status: mapped, message, code: String(code), ...(type ? { type } : {}) };
    }
    if (isRecord(parsed) && typeof parsed.error_description === 'string') {
      return { status, message: parsed.error_description };
    }
  } catch {
    // Not JSON: the text is the message.
  }
  return { status, message: text.trim().slice(0, 500) || `HTTP ${status}` };
}

function finishOf(reason: unknown, hasCall: boolean): FinishReason {
  if (hasCall || reason === 'function_call') return 'tool_calls';
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return 'stop';
}

function usageOf(value: unknown): ChatUsage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = typeof value.prompt_tokens === 'number' ? value.prompt_tokens : 0;
  const completion = typeof value.completion_tokens === 'number' ? value.completion_tokens : 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function toolCallOf(value: unknown, id: string) {
  if (!isRecord(value) || typeof value.name !== 'string') return undefined;
  const args = typeof value.arguments === 'string' ? value.arguments : JSON.stringify(value.arguments ?? {});
  return { id, type: 'function' as const, function: { name: value.name, arguments: args } };
}

export function parseWenxinChat(body: Buffer, context: AdapterContext): ChatCompletion {
  const parsed = upstreamObject(body, 'answer');
  if (typeof parsed.error_code === 'number') throw new Error(String(parsed.error_msg ?? `error ${parsed.error_code}`));
  if (typeof parsed.result !== 'string' && !isRecord(parsed.function_call)) {
    throw new Error("the upstream's answer has no result");
  }
  const call = toolCallOf(parsed.function_call, `call_${context.responseId}`);
  return {
    id: typeof parsed.id === 'string' ? parsed.id : context.responseId,
    object: 'chat.completion',
    created: typeof parsed.created === 'number' ? parsed.created : context.now,
    model: context.upstreamModel,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: typeof parsed.result === 'string' ? parsed.result : '',
          ...(call ? { tool_calls: [call] } : {}),
        },
        finish_reason: finishOf(parsed.finish_reason, call !== undefined),
      },
    ],
    ...(usageOf(parsed.usage) ? { usage: usageOf(parsed.usage) } : {}),
  };
}

/** v1's events (`data: {result, is_end, usage…}`) as OpenAI chunks; the usage chunk after the last. */
export function wenxinStreamDecoder(context: AdapterContext): StreamDecoder {
  const splitter = new SseSplitter();
  let started = false;
  let usage: ChatUsage | undefined;
  let leading = '';
  const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: FinishReason | null): ChatChunk => ({
    id: context.responseId,
    object: 'chat.completion.chunk',
    created: context.now,
    model: context.upstreamModel,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunksOf = (events: string[]) => {
    const chunks: ChatChunk[] = [];
    for (const event of events) {
      const data = eventData(event);
      if (data === undefined) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        continue;
      }
      if (!isRecord(parsed)) continue;
      if (typeof parsed.error_code === 'number') throw new Error(String(parsed.error_msg ?? parsed.error_code));
      usage = usageOf(parsed.usage) ?? usage;
      const call = toolCallOf(parsed.function_call, `call_${context.responseId}`);
      const delta: ChatChunk['choices'][number]['delta'] = started ? {} : { role: 'assistant' };
      started = true;
      if (typeof parsed.result === 'string' && parsed.result) delta.content = parsed.result;
      if (call) delta.tool_calls = [{ index: 0, ...call }];
      const done = parsed.is_end === true;
      chunks.push(chunk(delta, done ? finishOf(parsed.finish_reason, call !== undefined) : null));
    }
    return chunks;
  };
  return {
    push(bytes) {
      // An error comes as one JSON body instead of events.
      if (!started && leading.length < 64) {
        leading += bytes.toString('utf8');
        if (/^\s*\{/.test(leading)) {
          const status = wenxinErrorStatus(Buffer.from(leading));
          if (status !== undefined) throw new Error(parseWenxinError(200, Buffer.from(leading)).message);
        }
      }
      return chunksOf(splitter.push(bytes));
    },
    end() {
      const chunks = chunksOf(splitter.finish());
      if (usage) chunks.push({ ...chunk({}, null), choices: [], usage });
      return chunks;
    },
  };
}

/** OpenAI's embeddings request as v1's (`input` is always a list there). */
export function wenxinEmbeddingsBody(body: Json): Json {
  const input = body.input;
  return {
    input: Array.isArray(input) ? input : [input],
    ...(typeof body.user === 'string' ? { user_id: body.user } : {}),
  };
}

/** v1's embeddings answer in OpenAI's shape (it nearly is), the vectors as the client asked. */
export function parseWenxinEmbeddings(body: Buffer, model: string, encoding: 'float' | 'base64'): Json {
  const parsed = upstreamObject(body, 'answer');
  if (typeof parsed.error_code === 'number') throw new Error(String(parsed.error_msg ?? `error ${parsed.error_code}`));
  if (!Array.isArray(parsed.data)) throw new Error("the upstream's answer has no data");
  const usage = isRecord(parsed.usage) ? parsed.usage : {};
  const prompt = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
  return {
    object: 'list',
    model,
    data: embeddingsAs(parsed.data, encoding),
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  };
}

/** OpenAI-shaped embedding entries with their vectors as floats or as OpenAI's base64. */
export function embeddingsAs(entries: unknown[], encoding: 'float' | 'base64'): Json[] {
  return entries.map((entry: unknown, index) => {
    const vector = isRecord(entry) && Array.isArray(entry.embedding) ? (entry.embedding as number[]) : [];
    return {
      object: 'embedding',
      index: isRecord(entry) && typeof entry.index === 'number' ? entry.index : index,
      embedding: encoding === 'base64' ? float32Base64(vector) : vector,
    };
  });
}
