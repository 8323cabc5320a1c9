import { providerType } from '../../src/domain/channel-types/registry.js';
import {
  type Answer,
  type Call,
  type ErrorKind,
  imageArrives,
  isRecord,
  type Json,
  json,
  list,
  namesOf,
  type ProviderEntry,
  type Reply,
  type Responder,
  type StreamFrames,
  sse,
  type TokenCounts,
} from './scenario-mock.js';

/**
 * OpenAI (channel type `openai`, passed through) as api.openai.com answers: chat completions whole and
 * streamed (the usage chunk only when `stream_options.include_usage` asks for it), and the
 * Responses API whole. Bearer key. Usage: `prompt_tokens` includes cached and audio tokens,
 * `completion_tokens` includes reasoning and audio tokens, each listed again in the details.
 * The pieces here are shared with Azure (azure.ts), which speaks the same format.
 */

const KEY = 'sk-contract-openai-0123456789';

const CREATED = 1_750_000_000;

export function openAiUsage(counts: TokenCounts) {
  const prompt = counts.input + counts.cacheRead + counts.audioIn;
  const completion = counts.output + counts.reasoning + counts.audioOut;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: counts.cacheRead, audio_tokens: counts.audioIn },
    completion_tokens_details: {
      reasoning_tokens: counts.reasoning,
      audio_tokens: counts.audioOut,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Data-URL images whose bytes are the declared type, and web URLs, in chat or Responses shape. */
function countImages(body: Json, api: 'chat' | 'responses'): number {
  let count = 0;
  const items = list(api === 'chat' ? body.messages : body.input);
  for (const item of items) {
    if (!isRecord(item)) continue;
    for (const part of list(item.content)) {
      if (!isRecord(part)) continue;
      const url =
        api === 'chat'
          ? part.type === 'image_url' && isRecord(part.image_url)
            ? part.image_url.url
            : undefined
          : part.type === 'input_image'
            ? part.image_url
            : undefined;
      if (typeof url !== 'string') continue;
      if (imageArrives(url)) count++;
    }
  }
  return count;
}

/** The call an OpenAI-format body asks for; `model` when the URL names it (Azure deployments). */
export function readOpenAiBody(body: Json | undefined, api: 'chat' | 'responses', model?: string): Call | Reply {
  const bad = (message: string, param: string) =>
    json(400, { error: { message, type: 'invalid_request_error', param, code: null } });
  if (!body)
    return bad(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
      'body',
    );
  if (api === 'chat' && (!Array.isArray(body.messages) || body.messages.length === 0)) {
    return bad("Missing required parameter: 'messages'.", 'messages');
  }
  const named = model ?? body.model;
  if (typeof named !== 'string' || !named) return bad('you must provide a model parameter', 'model');
  const tools = namesOf(body.tools, (tool) =>
    api === 'chat' ? (isRecord(tool.function) ? tool.function.name : undefined) : tool.name,
  );
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  return {
    model: named,
    stream: body.stream === true,
    tools,
    images: countImages(body, api),
    api,
    flags: { includeUsage: options.include_usage === true },
  };
}

/** How a format writes its usage: OpenAI's own, with every detail, unless a vendor says otherwise. */
export type UsageWriter = (counts: TokenCounts) => Json;

export function openAiCompletion(answer: Answer, usageOf: UsageWriter = openAiUsage): Json {
  const { tool } = answer;
  return {
    id: 'chatcmpl-contract01',
    object: 'chat.completion',
    created: CREATED,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: tool ? null : answer.text,
          refusal: null,
          annotations: [],
          ...(tool
            ? {
                tool_calls: [
                  {
                    id: tool.id,
                    type: 'function',
                    function: { name: tool.name, arguments: JSON.stringify(tool.arguments) },
                  },
                ],
              }
            : {}),
        },
        logprobs: null,
        finish_reason: tool ? 'tool_calls' : 'stop',
      },
    ],
    usage: usageOf(answer.usage),
    service_tier: 'default',
    system_fingerprint: 'fp_contract',
  };
}

/** Chat chunks: a role chunk, one chunk per piece, the finish chunk, the usage chunk when asked, `[DONE]`. */
export function openAiChunks(
  answer: Answer,
  includeUsage: boolean,
  extra: Json = {},
  usageOf: UsageWriter = openAiUsage,
): Omit<StreamFrames, 'contentType'> {
  const chunk = (delta: Json, finish: string | null = null, more: Json = {}) =>
    sse({
      id: 'chatcmpl-contract01',
      object: 'chat.completion.chunk',
      created: CREATED,
      model: answer.model,
      system_fingerprint: 'fp_contract',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish, ...extra }],
      ...(includeUsage ? { usage: null } : {}),
      ...more,
    });
  const { tool } = answer;
  const pieces = tool
    ? [
        chunk({
          tool_calls: [{ index: 0, id: tool.id, type: 'function', function: { name: tool.name, arguments: '' } }],
        }),
        ...tool.argumentPieces.map((part) => chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] })),
      ]
    : answer.pieces.map((piece) => chunk({ content: piece }));
  const tail = [chunk({}, tool ? 'tool_calls' : 'stop')];
  if (includeUsage) {
    tail.push(
      sse({
        id: 'chatcmpl-contract01',
        object: 'chat.completion.chunk',
        created: CREATED,
        model: answer.model,
        system_fingerprint: 'fp_contract',
        choices: [],
        usage: usageOf(answer.usage),
      }),
    );
  }
  tail.push(sse('[DONE]'));
  return { head: [chunk({ role: 'assistant', content: tool ? null : '', refusal: null })], pieces, tail };
}

/** A Responses API answer (`object: "response"`), as OpenAI documents it. */
export function openAiResponse(answer: Answer): Json {
  const usage = openAiUsage(answer.usage);
  const { tool } = answer;
  return {
    id: 'resp_contract01',
    object: 'response',
    created_at: CREATED,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: answer.model,
    output: tool
      ? [
          {
            type: 'function_call',
            id: 'fc_contract01',
            call_id: tool.id,
            name: tool.name,
            arguments: JSON.stringify(tool.arguments),
            status: 'completed',
          },
        ]
      : [
          {
            type: 'message',
            id: 'msg_contract01',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: answer.text, annotations: [] }],
          },
        ],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: {
      input_tokens: usage.prompt_tokens,
      input_tokens_details: { cached_tokens: answer.usage.cacheRead },
      output_tokens: usage.completion_tokens,
      output_tokens_details: { reasoning_tokens: answer.usage.reasoning },
      total_tokens: usage.total_tokens,
    },
    user: null,
    metadata: {},
  };
}

function openAiError(kind: ErrorKind, model: string): Reply {
  if (kind === 'auth') {
    return json(401, {
      error: {
        message:
          'Incorrect API key provided: sk-contr************6789. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  }
  if (kind === 'rate') {
    return json(
      429,
      {
        error: {
          message: `Rate limit reached for ${model} in organization org-contract on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`,
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
      },
      { 'retry-after': '20' },
    );
  }
  return json(500, {
    error: {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
      param: null,
      code: null,
    },
  });
}

/** api.openai.com: `/v1/chat/completions` and `/v1/responses` with a bearer key. */
export function openAiResponder(key = KEY): Responder {
  return {
    read(request) {
      if (request.method !== 'POST') return json(405, { error: { message: 'Method not allowed' } });
      if (request.headers.authorization !== `Bearer ${key}`) return openAiError('auth', '');
      if (request.path === '/v1/chat/completions') return readOpenAiBody(request.body, 'chat');
      if (request.path === '/v1/responses') return readOpenAiBody(request.body, 'responses');
      return json(404, {
        error: {
          message: `Invalid URL (POST ${request.path})`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
    },
    whole: (answer, call) => (call.api === 'responses' ? openAiResponse(answer) : openAiCompletion(answer)),
    stream(answer, call) {
      if (call.api === 'responses') throw new Error('streamed Responses answers are not part of the contract suite');
      return {
        contentType: 'text/event-stream; charset=utf-8',
        ...openAiChunks(answer, call.flags?.includeUsage === true),
      };
    },
    error: (kind, call) => openAiError(kind, call.model),
  };
}

export const openAiChannel = (url: string, key = KEY): Json => ({ key, base_url: url });

export const openaiProvider: ProviderEntry = {
  name: 'OpenAI',
  type: providerType('openai'),
  model: 'gpt-4.1',
  setup: () => ({ responder: openAiResponder(), channel: (url) => openAiChannel(url) }),
  // The channel's bad key is the gateway's failure, not the client's: 502 (upstream-errors.ts).
  authStatus: 502,
  usage: {
    cacheWrite:
      'OpenAI caches prompts automatically and reports only cache reads (prompt_tokens_details.cached_tokens), no cache writes',
    reasoning: true,
    audio: true,
  },
};
