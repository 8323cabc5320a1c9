import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';
import { type ListeningMock, listenMock, pieces, sendJson } from '../../mocks/mock-server.js';

/**
 * A local stand-in for a vendor whose API is OpenAI's chat completions and embeddings at paths
 * and with credentials of its own (Zhipu, DashScope, Spark, Databricks, Qianfan v2). Each vendor's
 * mock (next to this folder) says where it serves and how it checks credentials; this one checks
 * the rest and answers in OpenAI's documented format:
 *
 * - credentials refused: 401 with the vendor's error body; unknown paths: 404.
 * - chat: `model` and a non-empty `messages` list are required (400 otherwise). With `tools` and
 *   no tool result yet it calls the first tool with `{"city":"Paris"}`; else it answers `reply`.
 *   Whole, or as server-sent events (`reply` in `chunks` deltas, tool arguments in three), ending
 *   with a usage chunk when `stream_options.include_usage` asks (or `alwaysStreamUsage`).
 * - embeddings: `input` (text or list); each text gets `vector(i)`; usage `prompt_tokens`.
 * - `failWith` answers every call with that status and body.
 * Usage reports `cached` prompt tokens in `prompt_tokens_details.cached_tokens` when non-zero.
 */

export interface VendorBehaviour {
  reply: string;
  chunks: number;
  usage: { prompt: number; completion: number; cached: number };
  failWith?: { status: number; body: unknown };
}

export interface VendorRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Json;
}

export type VendorMock = ListeningMock<VendorBehaviour, VendorRequest>;

export interface VendorMockOptions {
  /** Full paths answering chat completions. */
  chatPaths: string[];
  /** The full path answering embeddings, when the vendor has them. */
  embeddingsPath?: string;
  /** Why the request's credentials are refused, or undefined when they are good. */
  authorize(request: VendorRequest): string | undefined | Promise<string | undefined>;
  /** The vendor's error body (OpenAI's `{error: {message, type, code}}` unless said otherwise). */
  errorBody?(status: number, message: string): unknown;
  /** Paths the vendor answers otherwise (Baidu's token and v1 API): true when handled. */
  route?(
    request: VendorRequest,
    response: ServerResponse,
    mock: { behaviour: VendorBehaviour },
  ): boolean | Promise<boolean>;
  /** The vendor always ends streams with usage (Zhipu, Spark), asked or not. */
  alwaysStreamUsage?: boolean;
}

export const vendorDefaults = (): VendorBehaviour => ({
  reply: 'Hello from the vendor mock — 你好 ✅',
  chunks: 3,
  usage: { prompt: 23, completion: 9, cached: 0 },
});

/** The embedding the mock gives the text at `index` (float32-exact values). */
export const vector = (index: number): number[] => [0.5, -0.25, index + 0.125];

const openAiError = (status: number, message: string) => ({
  error: { message, type: status === 401 ? 'authentication_error' : 'invalid_request_error', code: String(status) },
});

export function usageOf(behaviour: VendorBehaviour) {
  const { prompt, completion, cached } = behaviour.usage;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cached ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  };
}

async function readJson(request: IncomingMessage): Promise<Json> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (!text) return {};
  const parsed: unknown = JSON.parse(text);
  return isRecord(parsed) ? parsed : {};
}

export async function startVendorMock(options: VendorMockOptions): Promise<VendorMock> {
  const state = { behaviour: vendorDefaults(), received: [] as VendorRequest[] };
  const errorBody = options.errorBody ?? openAiError;
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => sendJson(response, 500, errorBody(500, String(error))));
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://mock');
    const received: VendorRequest = {
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: request.method === 'POST' ? await readJson(request) : {},
    };
    state.received.push(received);
    if (options.route && (await options.route(received, response, state))) return;
    const refused = await options.authorize(received);
    if (refused) return sendJson(response, 401, errorBody(401, refused));
    const { failWith } = state.behaviour;
    if (failWith) return sendJson(response, failWith.status, failWith.body);
    if (options.chatPaths.includes(received.path)) return chat(received.body, response, state.behaviour);
    if (received.path === options.embeddingsPath) return embeddings(received.body, response, state.behaviour);
    sendJson(response, 404, errorBody(404, `no route for ${received.path}`));
  }

  function chat(body: Json, response: ServerResponse, behaviour: VendorBehaviour) {
    if (typeof body.model !== 'string' || !body.model)
      return sendJson(response, 400, errorBody(400, 'model is required'));
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return sendJson(response, 400, errorBody(400, 'messages must be a non-empty list'));
    }
    const last = body.messages.at(-1);
    const tool =
      Array.isArray(body.tools) && !(isRecord(last) && last.role === 'tool')
        ? body.tools.find((entry) => isRecord(entry) && entry.type === 'function')
        : undefined;
    const toolName = isRecord(tool) && isRecord(tool.function) ? String(tool.function.name) : undefined;
    const id = 'chatcmpl-vendor-1';
    const created = 1_700_000_000;
    if (body.stream !== true) {
      const message = toolName
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: toolName, arguments: '{"city":"Paris"}' } },
            ],
          }
        : { role: 'assistant', content: behaviour.reply };
      return sendJson(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: toolName ? 'tool_calls' : 'stop' }],
        usage: usageOf(behaviour),
      });
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Json, finish: string | null, extra: Json = {}) =>
      response.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
      );
    if (toolName) {
      send(
        {
          role: 'assistant',
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: toolName, arguments: '' } }],
        },
        null,
      );
      for (const part of ['{"city"', ': "Par', 'is"}'])
        send({ tool_calls: [{ index: 0, function: { arguments: part } }] }, null);
      send({}, 'tool_calls');
    } else {
      for (const [index, part] of pieces(behaviour.reply, behaviour.chunks).entries()) {
        send(index === 0 ? { role: 'assistant', content: part } : { content: part }, null);
      }
      send({}, 'stop');
    }
    const options_ = isRecord(body.stream_options) ? body.stream_options : {};
    if (options_.include_usage === true || options.alwaysStreamUsage) {
      response.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: usageOf(behaviour) })}\n\n`,
      );
    }
    response.end('data: [DONE]\n\n');
  }

  function embeddings(body: Json, response: ServerResponse, behaviour: VendorBehaviour) {
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(input) || input.length === 0 || input.some((text) => typeof text !== 'string')) {
      return sendJson(response, 400, errorBody(400, 'input must be text or a list of texts'));
    }
    sendJson(response, 200, {
      object: 'list',
      model: body.model,
      data: input.map((_text, index) => ({ object: 'embedding', index, embedding: vector(index) })),
      usage: { prompt_tokens: behaviour.usage.prompt, total_tokens: behaviour.usage.prompt },
    });
  }

  return listenMock(server, state, vendorDefaults);
}
