import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for api.anthropic.com (`POST /v1/messages`) and the Gemini API
 * (`POST /{version}/models/{model}:generateContent|streamGenerateContent?alt=sse`), speaking each
 * provider's documented wire format. Answers follow the request: with tools they call the first
 * tool, otherwise they answer `reply`, so a test sees what a translation sent and got back.
 */
export interface NativeBehaviour {
  anthropicKey: string;
  geminiKey: string;
  reply: string;
  /** Anthropic usage; Gemini reports the same numbers in its own fields. */
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** Stream: the reply in this many text deltas. */
  chunks: number;
  failWith?: { status: number; body: unknown };
}

export interface NativeRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface NativeUpstreams {
  url: string;
  behaviour: NativeBehaviour;
  received: NativeRequest[];
  reset(): void;
  close(): Promise<void>;
}

const defaults = (): NativeBehaviour => ({
  anthropicKey: 'sk-ant-upstream-test',
  geminiKey: 'AIza-upstream-test',
  reply: 'Hello from the native mock.',
  usage: { input: 21, output: 9, cacheRead: 5, cacheWrite: 3 },
  chunks: 3,
});

function pieces(text: string, count: number): string[] {
  const size = Math.ceil(text.length / Math.max(1, count));
  const list: string[] = [];
  for (let at = 0; at < text.length; at += size) list.push(text.slice(at, at + size));
  return list;
}

const firstTool = (body: Record<string, unknown>, key: 'anthropic' | 'gemini'): string | undefined => {
  if (key === 'anthropic') {
    const tools = Array.isArray(body.tools) ? (body.tools as Array<{ name?: string }>) : [];
    return tools[0]?.name;
  }
  const tools = Array.isArray(body.tools)
    ? (body.tools as Array<{ functionDeclarations?: Array<{ name?: string }> }>)
    : [];
  return tools.flatMap((tool) => tool.functionDeclarations ?? [])[0]?.name;
};

function anthropic(behaviour: NativeBehaviour, body: Record<string, unknown>, response: ServerResponse): void {
  const { usage } = behaviour;
  const tool = firstTool(body, 'anthropic');
  const startUsage = {
    input_tokens: usage.input,
    cache_read_input_tokens: usage.cacheRead,
    cache_creation_input_tokens: usage.cacheWrite,
    output_tokens: 1,
  };
  const message = {
    id: 'msg_mock01',
    type: 'message',
    role: 'assistant',
    model: body.model,
    stop_sequence: null,
  };
  if (body.stream !== true) {
    const content = tool
      ? [{ type: 'tool_use', id: 'toolu_mock01', name: tool, input: { city: 'Paris' } }]
      : [{ type: 'text', text: behaviour.reply }];
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        ...message,
        content,
        stop_reason: tool ? 'tool_use' : 'end_turn',
        usage: { ...startUsage, output_tokens: usage.output },
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type: string, data: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message: { ...message, content: [], stop_reason: null, usage: startUsage } });
  if (tool) {
    send('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_mock01', name: tool, input: {} },
    });
    for (const part of ['{"city"', ': "Par', 'is"}']) {
      send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: part } });
    }
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('ping', {});
    for (const part of pieces(behaviour.reply, behaviour.chunks)) {
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: part } });
    }
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', {
    delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  send('message_stop', {});
  response.end();
}

function gemini(behaviour: NativeBehaviour, body: Record<string, unknown>, stream: boolean, response: ServerResponse) {
  const { usage } = behaviour;
  const tool = firstTool(body, 'gemini');
  const usageMetadata = {
    promptTokenCount: usage.input + usage.cacheRead,
    cachedContentTokenCount: usage.cacheRead,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.cacheRead + usage.output,
  };
  const candidate = (parts: unknown[], finishReason?: string) => ({
    content: { role: 'model', parts },
    index: 0,
    ...(finishReason ? { finishReason } : {}),
  });
  const parts = tool ? [{ functionCall: { name: tool, args: { city: 'Paris' } } }] : [{ text: behaviour.reply }];
  if (!stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ candidates: [candidate(parts, 'STOP')], usageMetadata, modelVersion: 'mock-001' }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const events = tool ? [parts] : pieces(behaviour.reply, behaviour.chunks).map((text) => [{ text }]);
  events.forEach((eventParts, index) => {
    const last = index === events.length - 1;
    const event = {
      candidates: [candidate(eventParts, last ? 'STOP' : undefined)],
      ...(last ? { usageMetadata } : {}),
      modelVersion: 'mock-001',
    };
    response.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
  });
  response.end();
}

export async function startNativeUpstreams(): Promise<NativeUpstreams> {
  const state = { behaviour: defaults(), received: [] as NativeRequest[] };
  const server = createServer(async (request, response) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const path = request.url ?? '/';
    state.received.push({ path, headers: request.headers, body });
    const { behaviour } = state;
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (path.startsWith('/v1/messages')) {
      if (request.headers['x-api-key'] !== behaviour.anthropicKey) {
        json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
      } else if (behaviour.failWith) json(behaviour.failWith.status, behaviour.failWith.body);
      else anthropic(behaviour, body, response);
      return;
    }
    const target = /^\/v1(?:beta)?\/models\/([^:]+):(generateContent|streamGenerateContent)/.exec(path);
    if (target) {
      if (request.headers['x-goog-api-key'] !== behaviour.geminiKey) {
        json(400, {
          error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
        });
      } else if (behaviour.failWith) json(behaviour.failWith.status, behaviour.failWith.body);
      else gemini(behaviour, body, target[2] === 'streamGenerateContent', response);
      return;
    }
    json(404, { error: { message: `no route ${path}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get behaviour() {
      return state.behaviour;
    },
    received: state.received,
    reset() {
      state.behaviour = defaults();
      state.received.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
