import { providerType } from '../../src/domain/channel-types/registry.js';
import {
  type Answer,
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
  sse,
  type TokenCounts,
} from './scenario-mock.js';

/**
 * Cohere (channel type `cohere`) as api.cohere.com answers the v2 Chat API, `POST /v2/chat` with a
 * bearer key: OpenAI-like tools (`{type: "function", function}`) and `image_url` content parts,
 * an answer `{id, message: {role, content: [{type: "text"}], tool_plan, tool_calls}, finish_reason:
 * COMPLETE | TOOL_CALL, usage: {billed_units, tokens, cached_tokens}}` (`tokens.input_tokens`
 * includes the cached ones), and a stream of named events `message-start`, `content-start`,
 * `content-delta`…, `content-end` (or `tool-plan-delta`, `tool-call-start`, `tool-call-delta`…,
 * `tool-call-end`), `message-end` with the finish reason and the usage. Errors are `{"message"}`.
 */

const KEY = 'co-contract-0123456789abcdef';

function cohereUsage(counts: TokenCounts): Json {
  const input = counts.input + counts.cacheRead;
  return {
    billed_units: { input_tokens: input, output_tokens: counts.output },
    tokens: { input_tokens: input, output_tokens: counts.output },
    ...(counts.cacheRead > 0 ? { cached_tokens: counts.cacheRead } : {}),
  };
}

function countImages(messages: unknown): number {
  let count = 0;
  for (const message of list(messages)) {
    for (const part of list(isRecord(message) ? message.content : undefined)) {
      const url =
        isRecord(part) && part.type === 'image_url' && isRecord(part.image_url) ? part.image_url.url : undefined;
      if (imageArrives(url)) count++;
    }
  }
  return count;
}

function cohereAnswer(answer: Answer): Json {
  const { tool } = answer;
  return {
    id: 'c0ntract-5a50-480a-cf52-46f0af01aa01',
    message: tool
      ? {
          role: 'assistant',
          tool_plan: `I will call ${tool.name}.`,
          tool_calls: [
            {
              id: `${tool.name}_contract01`,
              type: 'function',
              function: { name: tool.name, arguments: JSON.stringify(tool.arguments) },
            },
          ],
        }
      : { role: 'assistant', content: [{ type: 'text', text: answer.text }] },
    finish_reason: tool ? 'TOOL_CALL' : 'COMPLETE',
    usage: cohereUsage(answer.usage),
  };
}

function cohereStream(answer: Answer) {
  const { tool } = answer;
  const event = (data: Json) => sse(data, String(data.type));
  const message = (delta: Json) => ({ delta: { message: delta } });
  const head = [
    event({
      id: 'c0ntract-29f1-4a5a-11de-4cae980025e4',
      type: 'message-start',
      ...message({ role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] }),
    }),
    tool
      ? event({ type: 'tool-plan-delta', ...message({ tool_plan: `I will call ${tool.name}.` }) })
      : event({ type: 'content-start', index: 0, ...message({ content: { type: 'text', text: '' } }) }),
  ];
  if (tool) {
    head.push(
      event({
        type: 'tool-call-start',
        index: 0,
        ...message({
          tool_calls: {
            id: `${tool.name}_contract01`,
            type: 'function',
            function: { name: tool.name, arguments: '' },
          },
        }),
      }),
    );
  }
  const pieces = tool
    ? tool.argumentPieces.map((part) =>
        event({ type: 'tool-call-delta', index: 0, ...message({ tool_calls: { function: { arguments: part } } }) }),
      )
    : answer.pieces.map((text) => event({ type: 'content-delta', index: 0, ...message({ content: { text } }) }));
  const tail = [
    event({ type: tool ? 'tool-call-end' : 'content-end', index: 0 }),
    event({
      type: 'message-end',
      delta: { finish_reason: tool ? 'TOOL_CALL' : 'COMPLETE', usage: cohereUsage(answer.usage) },
    }),
  ];
  return { contentType: 'text/event-stream', head, pieces, tail };
}

function cohereError(kind: ErrorKind): Reply {
  const id = 'c0ntract-5e7f-9a1b-2c3d-4e5f6a7b8c9d';
  if (kind === 'auth') return json(401, { id, message: 'invalid api token' });
  if (kind === 'rate') {
    return json(429, {
      id,
      message:
        "You are using a Trial key, which is limited to 10 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with higher rate limits at 'https://dashboard.cohere.com/api-keys'.",
    });
  }
  return json(500, { id, message: `internal server error, this has been reported to our developers. id ${id}` });
}

function cohereResponder(): Responder {
  return {
    read(request) {
      if (request.path !== '/v2/chat' || request.method !== 'POST') return json(404, { message: 'not found' });
      if (request.headers.authorization !== `Bearer ${KEY}`) return cohereError('auth');
      const { body } = request;
      if (!body || typeof body.model !== 'string' || !Array.isArray(body.messages) || body.messages.length === 0) {
        return json(400, { message: 'invalid request: model and a non-empty messages list are required' });
      }
      const tools = namesOf(body.tools, (tool) => (isRecord(tool.function) ? tool.function.name : undefined));
      return {
        model: body.model,
        stream: body.stream === true,
        tools,
        images: countImages(body.messages),
        api: 'chat',
      };
    },
    whole: (answer) => cohereAnswer(answer),
    stream: (answer) => cohereStream(answer),
    error: (kind) => cohereError(kind),
  };
}

const NO_COUNT = "Cohere's usage has billed_units, tokens and cached_tokens only";

export const cohereProvider: ProviderEntry = {
  name: 'Cohere',
  type: providerType('cohere'),
  model: 'command-a-03-2025',
  setup: () => ({ responder: cohereResponder(), channel: (url) => ({ key: KEY, base_url: url }) }),
  authStatus: 502,
  usage: {
    cacheWrite: `${NO_COUNT}: no cache-write count`,
    reasoning: `${NO_COUNT}: no reasoning count`,
    audio: `${NO_COUNT}, and the Chat API takes no audio`,
  },
};
