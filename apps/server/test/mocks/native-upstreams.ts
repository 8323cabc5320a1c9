import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { claudeAnswer, type ListeningMock, listenMock, pieces } from './mock-server.js';

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
  /** Answers carry no counts (Anthropic's zeroed, Gemini's left out), as some compatible proxies send them. */
  withoutUsage?: boolean;
  failWith?: { status: number; body: unknown };
}

export interface NativeRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type NativeUpstreams = ListeningMock<NativeBehaviour, NativeRequest>;

const defaults = (): NativeBehaviour => ({
  anthropicKey: 'sk-ant-upstream-test',
  geminiKey: 'AIza-upstream-test',
  reply: 'Hello from the native mock.',
  usage: { input: 21, output: 9, cacheRead: 5, cacheWrite: 3 },
  chunks: 3,
});

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
  const tool = firstTool(body, 'anthropic');
  const answer = claudeAnswer({
    messageId: 'msg_mock01',
    toolUseId: 'toolu_mock01',
    model: body.model,
    tool,
    reply: behaviour.reply,
    usage: behaviour.usage,
  });
  // The Anthropic SDK needs the usage objects: a proxy without counts sends them zeroed.
  const bare = <T extends object>(value: T): T => {
    if (!behaviour.withoutUsage || !('usage' in value)) return value;
    return { ...value, usage: { input_tokens: 0, output_tokens: 0 } };
  };
  if (body.stream !== true) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(bare(answer.whole)));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type: string, data: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...bare(data) })}\n\n`);
  send('message_start', { message: bare(answer.start) });
  if (tool) {
    for (const [type, data] of answer.toolEvents) send(type, data);
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('ping', {});
    for (const part of pieces(behaviour.reply, behaviour.chunks)) {
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: part } });
    }
  }
  for (const [type, data] of answer.closing) send(type, data);
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
    const counts = behaviour.withoutUsage ? {} : { usageMetadata };
    response.end(JSON.stringify({ candidates: [candidate(parts, 'STOP')], ...counts, modelVersion: 'mock-001' }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const events = tool ? [parts] : pieces(behaviour.reply, behaviour.chunks).map((text) => [{ text }]);
  events.forEach((eventParts, index) => {
    const last = index === events.length - 1;
    const event = {
      candidates: [candidate(eventParts, last ? 'STOP' : undefined)],
      ...(last && !behaviour.withoutUsage ? { usageMetadata } : {}),
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
  return listenMock(server, state, defaults);
}
