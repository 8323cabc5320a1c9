import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerMedia } from './openai-media.js';
import type { MockBehaviour, MockState, MockUpstream, ReceivedFile, ReceivedRequest } from './openai-types.js';

export type { MockBehaviour, MockState, MockUpstream, ReceivedFile, ReceivedRequest } from './openai-types.js';

const defaults = (): MockBehaviour => ({
  apiKey: 'sk-upstream-test',
  reply: 'Hello from the mock upstream.',
  usage: { prompt_tokens: 12, completion_tokens: 7 },
  chunks: 3,
  chunkDelayMs: 0,
  omitStreamUsage: false,
  omitUsage: false,
  speech: Buffer.from('ID3-mock-mp3-audio-bytes'.repeat(64)),
  rerankUsage: 'prompt_tokens',
});

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Reads a body; forms are decoded with the platform's own multipart parser, not the relay's. */
async function readRequest(request: IncomingMessage): Promise<Pick<ReceivedRequest, 'body' | 'files' | 'raw'>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  const contentType = request.headers['content-type'] ?? '';
  if (!contentType.startsWith('multipart/form-data')) {
    const text = raw.toString('utf8');
    return { body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, files: [], raw };
  }
  const form = await new Request('http://mock/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: raw,
  }).formData();
  const body: Record<string, unknown> = {};
  const files: ReceivedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') body[field] = value;
    else files.push({ field, filename: value.name, type: value.type, size: value.size });
  }
  return { body, files, raw };
}

/**
 * A local stand-in for api.openai.com that speaks OpenAI's documented wire format (chat, streamed
 * chat with the usage chunk, completions, embeddings, moderations; responses, images, audio and
 * rerank in openai-media.ts), so relay tests run with no network. Tests steer it through
 * `behaviour` and read what it received from `received`.
 */
export async function startMockUpstream(overrides: Partial<MockBehaviour> = {}): Promise<MockUpstream> {
  const mock: MockState = {
    behaviour: { ...defaults(), ...overrides },
    received: [],
    abortedStreams: 0,
  };
  const server: Server = createServer((request, response) => {
    handle(mock, request, response).catch((error: unknown) =>
      json(response, 500, { error: { message: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(mock, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

async function handle(mock: MockState, request: IncomingMessage, response: ServerResponse) {
  const { body, files, raw } =
    request.method === 'POST' ? await readRequest(request) : { body: {}, files: [], raw: Buffer.alloc(0) };
  const path = (request.url ?? '').split('?')[0] ?? '';
  mock.received.push({
    path,
    authorization: request.headers.authorization,
    headers: request.headers,
    body,
    files,
    raw,
  });
  const behaviour = mock.behaviour;
  if (behaviour.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.answerDelayMs));
  if (request.headers.authorization !== `Bearer ${behaviour.apiKey}`) {
    return json(response, 401, {
      error: {
        message: 'Incorrect API key provided.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        param: null,
      },
    });
  }
  if (behaviour.failWith) {
    const { status, message, type = 'server_error', code } = behaviour.failWith;
    return json(response, status, { error: { message, type, code: code ?? null, param: null } });
  }
  const model = String(body.model ?? '');
  switch (path) {
    case '/v1/chat/completions':
      return body.stream === true
        ? streamChat(mock, body, response)
        : json(response, 200, chatCompletion(behaviour, model));
    case '/v1/completions':
      return json(response, 200, {
        id: 'cmpl-mock',
        object: 'text_completion',
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, text: behaviour.reply, finish_reason: 'stop', logprobs: null }],
        usage: { ...behaviour.usage, total_tokens: behaviour.usage.prompt_tokens + behaviour.usage.completion_tokens },
      });
    case '/v1/embeddings': {
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      return json(response, 200, {
        object: 'list',
        model,
        data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3] })),
        usage: { prompt_tokens: behaviour.usage.prompt_tokens, total_tokens: behaviour.usage.prompt_tokens },
      });
    }
    case '/v1/moderations':
      return json(response, 200, {
        id: 'modr-mock',
        model,
        results: [{ flagged: false, categories: { violence: false }, category_scores: { violence: 0.01 } }],
      });
    default:
      if (await answerMedia(mock, path, body, response)) return;
      return json(response, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } });
  }
}

function chatCompletion(behaviour: MockBehaviour, model: string) {
  const { usage } = behaviour;
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content: behaviour.reply }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

async function streamChat(mock: MockState, body: Record<string, unknown>, response: ServerResponse) {
  const behaviour = mock.behaviour;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let closed = false;
  response.on('close', () => {
    if (!response.writableFinished) {
      closed = true;
      mock.abortedStreams++;
    }
  });
  const base = {
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: String(body.model),
  };
  const size = Math.ceil(behaviour.reply.length / behaviour.chunks);
  for (let index = 0; index < behaviour.chunks && !closed; index++) {
    const content = behaviour.reply.slice(index * size, (index + 1) * size);
    const delta = index === 0 ? { role: 'assistant', content } : { content };
    response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
    if (behaviour.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, behaviour.chunkDelayMs));
  }
  if (closed) return;
  response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
  const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  if (wantsUsage && !behaviour.omitStreamUsage) {
    const usage = {
      ...behaviour.usage,
      total_tokens: behaviour.usage.prompt_tokens + behaviour.usage.completion_tokens,
    };
    response.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
  }
  response.end('data: [DONE]\n\n');
}
