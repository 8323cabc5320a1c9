/**
 * A tiny OpenAI-compatible upstream for browser tests: it answers the chat completions of its
 * models, streamed or whole, always with the same text and usage, and records what it received.
 * Options add the models a test needs beyond that: one the upstream refuses, and one whose stream
 * stays open until the client hangs up (to stop an answer midway).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the mock answers for `model` (one or several): the streamed pieces and the usage it reports. */
export interface MockAnswer {
  model: string | readonly string[];
  pieces: readonly string[];
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    /** The breakdowns OpenAI adds (cached and reasoning tokens), for tests of the Logs screen's. */
    prompt_tokens_details?: Record<string, number>;
    completion_tokens_details?: Record<string, number>;
  };
  /** Models refused with a 400 and this message, as an upstream refuses a request it cannot take. */
  refusals?: Readonly<Record<string, string>>;
  /**
   * Models whose stream sends the pieces, then nothing more and never ends: the answer is still
   * open whenever the test looks, and ends only when the client hangs up (`heldStreamsCut`).
   */
  held?: readonly string[];
}

export interface MockUpstream {
  url: string;
  received: Array<{ path: string; model: string; stream: boolean; authorization: string }>;
  /** The bodies of the requests, in the order of `received`. */
  bodies: Array<Record<string, unknown>>;
  /** Held streams the client hung up on. */
  heldStreamsCut: number;
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

/** The role chunk, then each piece a moment apart, so a client shows text while the stream is open. */
async function streamPieces(response: ServerResponse, model: string, answer: MockAnswer): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chunk(model, { role: 'assistant', content: '' }));
  for (const piece of answer.pieces) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    response.write(chunk(model, { content: piece }));
  }
}

async function streamAnswer(response: ServerResponse, model: string, answer: MockAnswer): Promise<void> {
  await streamPieces(response, model, answer);
  response.write(chunk(model, {}, 'stop'));
  response.write(
    `data: ${JSON.stringify({ id: 'chatcmpl-journey', object: 'chat.completion.chunk', model, choices: [], usage: answer.usage })}\n\n`,
  );
  response.end('data: [DONE]\n\n');
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function answerWhole(response: ServerResponse, model: string, answer: MockAnswer): void {
  sendJson(response, 200, {
    id: 'chatcmpl-journey',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: answer.pieces.join('') }, finish_reason: 'stop' }],
    usage: answer.usage,
  });
}

async function answerChat(
  mock: MockUpstream,
  response: ServerResponse,
  body: Record<string, unknown>,
  answer: MockAnswer,
): Promise<void> {
  const model = String(body.model ?? '');
  const refusal = answer.refusals?.[model];
  if (refusal !== undefined) {
    sendJson(response, 400, { error: { message: refusal, type: 'invalid_request_error' } });
  } else if (answer.held?.includes(model)) {
    response.on('close', () => {
      mock.heldStreamsCut += 1;
    });
    await streamPieces(response, model, answer);
  } else if (!([] as string[]).concat(answer.model).includes(model)) {
    sendJson(response, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
  } else if (body.stream) {
    await streamAnswer(response, model, answer);
  } else {
    answerWhole(response, model, answer);
  }
}

export async function startMockUpstream(answer: MockAnswer): Promise<MockUpstream> {
  const mock: MockUpstream = { url: '', received: [], bodies: [], heldStreamsCut: 0, close: async () => {} };
  const server: Server = createServer((request, response) => {
    void readJson(request).then(async (body) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      mock.received.push({
        path,
        model: String(body.model ?? ''),
        stream: body.stream === true,
        authorization: request.headers.authorization ?? '',
      });
      mock.bodies.push(body);
      if (request.method === 'POST' && path === '/v1/chat/completions') await answerChat(mock, response, body, answer);
      else sendJson(response, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
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
