import { crc32 } from 'node:zlib';
import { providerType } from '../../src/domain/channel-types/registry.js';
import { anthropicEvents, anthropicMessage, invalidRequest, readAnthropicBody } from './anthropic.js';
import {
  type Answer,
  type Call,
  type ErrorKind,
  imageKind,
  isRecord,
  type Json,
  json,
  list,
  namesOf,
  type ProviderEntry,
  type Reply,
  type Responder,
  type TokenCounts,
} from './scenario-mock.js';

/**
 * Amazon Bedrock (channel type `bedrock`) as bedrock-runtime answers `POST /model/{modelId}/{action}`,
 * here with a Bedrock API key as bearer token (SigV4 signing has its own end-to-end test in
 * providers/bedrock). Claude through InvokeModel (`invoke`, `invoke-with-response-stream`):
 * Anthropic's body with `anthropic_version: bedrock-2023-05-31` and neither `model` nor `stream`,
 * Anthropic's answer, a stream of `chunk` events whose `bytes` are base64 Anthropic events. Other
 * models through Converse (`converse`, `converse-stream`): images as `{image: {format, source:
 * {bytes}}}`, tools as `toolConfig.tools[].toolSpec`, usage `inputTokens` (cache reads and writes
 * excluded, listed as `cacheReadInputTokens`/`cacheWriteInputTokens`) and `outputTokens`. Streams
 * use AWS event-stream framing, written here by hand: prelude (total and header lengths, CRC32),
 * string headers, JSON payload, message CRC32. Errors are `{"message"}` with the exception name in
 * `x-amzn-ErrorType`; a bad API key is a 403.
 */

const REGION = 'us-east-1';
const API_KEY = 'ABSKQmVkcm9ja0FQSUtleS1jb250cmFjdA==';

// ---- AWS event-stream framing ----

function stringHeader(name: string, value: string): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const valueBytes = Buffer.from(value, 'utf8');
  const header = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
  header.writeUInt8(nameBytes.length, 0);
  nameBytes.copy(header, 1);
  header.writeUInt8(7, 1 + nameBytes.length); // 7: string
  header.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
  valueBytes.copy(header, 4 + nameBytes.length);
  return header;
}

export function eventStreamMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const head = Buffer.concat(Object.entries(headers).map(([name, value]) => stringHeader(name, value)));
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(12 + head.length + payload.length + 4, 0);
  prelude.writeUInt32BE(head.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, head, payload]);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(crc32(message), 0);
  return Buffer.concat([message, trailer]);
}

const event = (type: string, payload: Json): Buffer =>
  eventStreamMessage(
    { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' },
    // Bedrock pads payloads with a `p` field so sizes do not reveal content.
    Buffer.from(JSON.stringify({ ...payload, p: 'abcdefghijklmnopqrstuvwxyzABCD'.slice(0, 7 + (type.length % 20)) })),
  );

// ---- Converse ----

function converseUsage(counts: TokenCounts): Json {
  return {
    inputTokens: counts.input,
    outputTokens: counts.output,
    totalTokens: counts.input + counts.output + counts.cacheRead + counts.cacheWrite,
    ...(counts.cacheRead > 0 ? { cacheReadInputTokens: counts.cacheRead } : {}),
    ...(counts.cacheWrite > 0 ? { cacheWriteInputTokens: counts.cacheWrite } : {}),
  };
}

function readConverse(body: Json | undefined, model: string, stream: boolean): Call | Reply {
  const validation = (message: string) =>
    json(
      400,
      { message },
      { 'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
    );
  if (!body || !Array.isArray(body.messages) || body.messages.length === 0) {
    return validation(
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
    );
  }
  if ('model' in body || 'stream' in body) {
    return validation(
      'Malformed input request: extraneous key is not permitted, please reformat your input and try again.',
    );
  }
  const config = isRecord(body.toolConfig) ? body.toolConfig : {};
  const tools = namesOf(config.tools, (tool) => (isRecord(tool.toolSpec) ? tool.toolSpec.name : undefined));
  let images = 0;
  for (const message of body.messages) {
    for (const block of list(isRecord(message) ? message.content : undefined)) {
      const image = isRecord(block) && isRecord(block.image) ? block.image : undefined;
      const bytes = image && isRecord(image.source) ? image.source.bytes : undefined;
      if (image && typeof bytes === 'string' && imageKind(bytes) === image.format) images++;
    }
  }
  return { model, stream, tools, images, api: 'converse' };
}

function converseAnswer(answer: Answer): Json {
  const { tool } = answer;
  return {
    output: {
      message: {
        role: 'assistant',
        content: tool
          ? [{ toolUse: { toolUseId: 'tooluse_ContractMock01', name: tool.name, input: tool.arguments } }]
          : [{ text: answer.text }],
      },
    },
    stopReason: tool ? 'tool_use' : 'end_turn',
    usage: converseUsage(answer.usage),
    metrics: { latencyMs: 321 },
  };
}

function converseStream(answer: Answer) {
  const { tool } = answer;
  const head = [event('messageStart', { role: 'assistant' })];
  if (tool) {
    head.push(
      event('contentBlockStart', {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: 'tooluse_ContractMock01', name: tool.name } },
      }),
    );
  }
  const pieces = tool
    ? tool.argumentPieces.map((input) =>
        event('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input } } }),
      )
    : answer.pieces.map((text) => event('contentBlockDelta', { contentBlockIndex: 0, delta: { text } }));
  const tail = [
    event('contentBlockStop', { contentBlockIndex: 0 }),
    event('messageStop', { stopReason: tool ? 'tool_use' : 'end_turn' }),
    event('metadata', { usage: converseUsage(answer.usage), metrics: { latencyMs: 321 } }),
  ];
  return { contentType: 'application/vnd.amazon.eventstream', head, pieces, tail };
}

// ---- InvokeModel (Claude) ----

function readInvoke(body: Json | undefined, model: string, stream: boolean): Call | Reply {
  if (!body) return invalidRequest('Malformed input request, please reformat your input and try again.');
  if (body.anthropic_version !== 'bedrock-2023-05-31') {
    return json(400, { message: 'Malformed input request: #: required key [anthropic_version] not found' });
  }
  for (const key of ['model', 'stream']) {
    if (key in body) {
      return json(400, {
        message: `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
      });
    }
  }
  return readAnthropicBody(body, 'invoke', model, stream);
}

function invokeStream(answer: Answer) {
  const { head, pieces, tail } = anthropicEvents(answer, {
    'amazon-bedrock-invocationMetrics': {
      inputTokenCount: answer.usage.input,
      outputTokenCount: answer.usage.output,
      invocationLatency: 512,
      firstByteLatency: 128,
    },
  });
  const chunk = (data: Json) => event('chunk', { bytes: Buffer.from(JSON.stringify(data)).toString('base64') });
  return {
    contentType: 'application/vnd.amazon.eventstream',
    head: head.map(chunk),
    pieces: pieces.map(chunk),
    tail: tail.map(chunk),
  };
}

// ---- the responder ----

function bedrockError(kind: ErrorKind): Reply {
  const fail = (status: number, type: string, body: Json) =>
    json(status, body, {
      'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      'x-amzn-requestid': 'contract-mock-request',
    });
  if (kind === 'auth') {
    return fail(403, 'AccessDeniedException', {
      Message: 'Authentication failed: Please make sure your API Key is valid.',
    });
  }
  if (kind === 'rate') {
    return fail(429, 'ThrottlingException', { message: 'Too many requests, please wait before trying again.' });
  }
  return fail(500, 'InternalServerException', {
    message: 'The system encountered an unexpected error during processing. Try your request again.',
  });
}

const ROUTE = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/;

function bedrockResponder(): Responder {
  return {
    read(request) {
      const route = ROUTE.exec(request.path);
      if (!route || request.method !== 'POST') {
        return json(
          404,
          { message: `no route ${request.method} ${request.path}` },
          { 'x-amzn-errortype': 'UnknownOperationException' },
        );
      }
      if (request.headers.authorization !== `Bearer ${API_KEY}`) return bedrockError('auth');
      const model = decodeURIComponent(route[1] ?? '');
      const action = route[2] ?? '';
      if (action.startsWith('invoke')) {
        if (!model.includes('anthropic.claude'))
          return json(400, { message: 'The provided model identifier is invalid.' });
        return readInvoke(request.body, model, action === 'invoke-with-response-stream');
      }
      return readConverse(request.body, model, action === 'converse-stream');
    },
    whole: (answer, call) => (call.api === 'invoke' ? anthropicMessage(answer) : converseAnswer(answer)),
    stream: (answer, call) => (call.api === 'invoke' ? invokeStream(answer) : converseStream(answer)),
    error: (kind) => bedrockError(kind),
  };
}

const setup = () => ({
  responder: bedrockResponder(),
  channel: (url: string) => ({ key: `${REGION}|${API_KEY}`, base_url: url }),
});

const noAudio = "Bedrock's usage has no audio counts";

export const bedrockClaudeProvider: ProviderEntry = {
  name: 'Bedrock, Claude through InvokeModel',
  type: providerType('bedrock'),
  model: 'claude-sonnet-4-6',
  setup,
  // AWS refuses bad credentials with 403; the relay answers its own 502 for a channel's failure.
  authStatus: 502,
  cacheReadKind: 'cached_read_tokens',
  usage: {
    cacheWrite: true,
    reasoning: "InvokeModel returns Anthropic's usage, which has no thinking count (thinking is inside output_tokens)",
    audio: noAudio,
  },
};

export const bedrockConverseProvider: ProviderEntry = {
  name: 'Bedrock, Nova through Converse',
  type: providerType('bedrock'),
  model: 'amazon.nova-lite-v1:0',
  setup,
  authStatus: 502,
  cacheReadKind: 'cached_read_tokens',
  usage: {
    cacheWrite: true,
    reasoning: "Converse's TokenUsage has no reasoning count: reasoning tokens are inside outputTokens",
    audio: noAudio,
  },
};
