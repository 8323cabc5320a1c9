import { providerType } from '../../src/domain/channel-types/registry.js';
import {
  type Answer,
  type Call,
  type ErrorKind,
  imageMatches,
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
 * Anthropic Messages (channel type `anthropic`) as api.anthropic.com answers `POST /v1/messages`:
 * `x-api-key` and `anthropic-version` headers, `max_tokens` required, images as `image` blocks
 * with a base64 (or URL) source, tools as `{name, description, input_schema}`. Usage:
 * `input_tokens` excludes cache reads (`cache_read_input_tokens`) and writes
 * (`cache_creation_input_tokens`); thinking is inside `output_tokens`. A stream is
 * `message_start` (input counts) … `message_delta` (output count) `message_stop`.
 * The message and event builders are shared with Claude on Bedrock and on Vertex.
 */

const KEY = 'sk-ant-contract-0123456789';

export function anthropicUsage(counts: TokenCounts): Json {
  return {
    input_tokens: counts.input,
    cache_creation_input_tokens: counts.cacheWrite,
    cache_read_input_tokens: counts.cacheRead,
    output_tokens: counts.output,
  };
}

function countImages(messages: unknown): number {
  let count = 0;
  for (const message of list(messages)) {
    if (!isRecord(message)) continue;
    for (const block of list(message.content)) {
      if (!isRecord(block) || block.type !== 'image' || !isRecord(block.source)) continue;
      const { source } = block;
      if (source.type === 'base64' ? imageMatches(source.media_type, source.data) : source.type === 'url') count++;
    }
  }
  return count;
}

export const invalidRequest = (message: string): Reply =>
  json(400, { type: 'error', error: { type: 'invalid_request_error', message } });

/** The call a Messages body asks for (`model` from the URL where the platform puts it there). */
export function readAnthropicBody(body: Json | undefined, api: string, model?: string, stream?: boolean): Call | Reply {
  if (!body) return invalidRequest('There was an issue with your request body: expected a JSON object');
  const named = model ?? body.model;
  if (typeof named !== 'string' || !named) return invalidRequest('model: Field required');
  if (typeof body.max_tokens !== 'number') return invalidRequest('max_tokens: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) return invalidRequest('messages: Field required');
  const tools = namesOf(body.tools, (tool) => tool.name);
  return {
    model: named,
    stream: stream ?? body.stream === true,
    tools,
    images: countImages(body.messages),
    api,
  };
}

const messageBase = (answer: Answer) => ({
  id: 'msg_01ContractMock',
  type: 'message',
  role: 'assistant',
  model: answer.model,
});

export function anthropicMessage(answer: Answer): Json {
  const { tool } = answer;
  return {
    ...messageBase(answer),
    content: tool
      ? [{ type: 'tool_use', id: 'toolu_01ContractMock', name: tool.name, input: tool.arguments }]
      : [{ type: 'text', text: answer.text }],
    stop_reason: tool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage(answer.usage),
  };
}

/** A stream's events (objects with their `type`), before, for and after the pieces. */
export function anthropicEvents(answer: Answer, stopExtra: Json = {}): { head: Json[]; pieces: Json[]; tail: Json[] } {
  const { tool } = answer;
  const usage = anthropicUsage(answer.usage);
  const head: Json[] = [
    {
      type: 'message_start',
      message: {
        ...messageBase(answer),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
    {
      type: 'content_block_start',
      index: 0,
      content_block: tool
        ? { type: 'tool_use', id: 'toolu_01ContractMock', name: tool.name, input: {} }
        : { type: 'text', text: '' },
    },
    { type: 'ping' },
  ];
  const pieces: Json[] = tool
    ? tool.argumentPieces.map((part) => ({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: part },
      }))
    : answer.pieces.map((text) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }));
  const tail: Json[] = [
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
    { type: 'message_stop', ...stopExtra },
  ];
  return { head, pieces, tail };
}

const frame = (event: Json) => sse(event, String(event.type));

export function anthropicSse(answer: Answer) {
  const { head, pieces, tail } = anthropicEvents(answer);
  return {
    contentType: 'text/event-stream; charset=utf-8',
    head: head.map(frame),
    pieces: pieces.map(frame),
    tail: tail.map(frame),
  };
}

function anthropicError(kind: ErrorKind): Reply {
  const error = (status: number, type: string, message: string, headers: Record<string, string> = {}) =>
    json(status, { type: 'error', error: { type, message }, request_id: 'req_011ContractMock' }, headers);
  if (kind === 'auth') return error(401, 'authentication_error', 'invalid x-api-key');
  if (kind === 'rate') {
    return error(
      429,
      'rate_limit_error',
      'Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.',
      { 'retry-after': '30' },
    );
  }
  return error(500, 'api_error', 'Internal server error');
}

export function anthropicResponder(key = KEY): Responder {
  return {
    read(request) {
      if (request.path !== '/v1/messages' || request.method !== 'POST') {
        return json(404, { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } });
      }
      if (request.headers['x-api-key'] !== key) return anthropicError('auth');
      if (typeof request.headers['anthropic-version'] !== 'string') {
        return invalidRequest('anthropic-version: header is required');
      }
      return readAnthropicBody(request.body, 'messages');
    },
    whole: (answer) => anthropicMessage(answer),
    stream: (answer) => anthropicSse(answer),
    error: (kind) => anthropicError(kind),
  };
}

export const anthropicChannel = (url: string, key = KEY): Json => ({ key, base_url: url });

export const anthropicProvider: ProviderEntry = {
  name: 'Anthropic',
  type: providerType('anthropic'),
  model: 'claude-sonnet-4-6',
  setup: () => ({ responder: anthropicResponder(), channel: (url) => anthropicChannel(url) }),
  authStatus: 502,
  cacheReadKind: 'cached_read_tokens',
  usage: {
    cacheWrite: true,
    reasoning: "Anthropic's usage has no thinking count: thinking tokens are inside output_tokens",
    audio: 'the Messages API takes no audio and produces none: its usage has no audio counts',
  },
};
