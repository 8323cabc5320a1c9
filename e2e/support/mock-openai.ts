/**
 * A tiny OpenAI-compatible upstream for browser tests: it answers the chat completions of its
 * models, streamed or whole, always with the same text and usage, and records what it received.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the mock answers for `model` (one or several): the streamed pieces and the usage it reports. */
export interface MockAnswer {
  model: string | readonly string[];
  pieces: readonly string[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface MockUpstream {
  url: string;
  received: Array<{ path: string; model: string; stream: boolean; authorization: string }>;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: 'chatcmpl-journey',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

async function streamAnswer(response: ServerResponse, model: string, answer: MockAnswer): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chunk(model, { role: 'assistant', content: '' }));
  for (const piece of answer.pieces) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    response.write(chunk(model, { content: piece }));
  }
  response.write(chunk(model, {}, 'stop'));
  response.write(
    `data: ${JSON.stringify({ id: 'chatcmpl-journey', object: 'chat.completion.chunk', model, choices: [], usage: answer.usage })}\n\n`,
  );
  response.end('data: [DONE]\n\n');
}

export async function startMockUpstream(answer: MockAnswer): Promise<MockUpstream> {
  const mock: MockUpstream = { url: '', received: [], close: async () => {} };
  const server: Server = createServer((request, response) => {
    void readJson(request).then(async (body) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      const model = String(body.model ?? '');
      mock.received.push({
        path,
        model,
        stream: body.stream === true,
        authorization: request.headers.authorization ?? '',
      });
      if (
        request.method !== 'POST' ||
        path !== '/v1/chat/completions' ||
        !([] as string[]).concat(answer.model).includes(model)
      ) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      } else if (body.stream) {
        await streamAnswer(response, model, answer);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-journey',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [
              { index: 0, message: { role: 'assistant', content: answer.pieces.join('') }, finish_reason: 'stop' },
            ],
            usage: answer.usage,
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return mock;
}
