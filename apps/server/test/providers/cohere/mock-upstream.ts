import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';
import { type ListeningMock, listenMock, pieces, sendJson } from '../../mocks/mock-server.js';

/**
 * A local stand-in for `api.cohere.com`, for the end-to-end test. It checks what Cohere checks
 * and answers in Cohere's v2 formats:
 *
 * - every call needs `Authorization: Bearer <apiKey>` (401 `invalid api token` otherwise) and a
 *   JSON body; unknown paths are 404.
 * - `POST /v2/chat`: `model`, a non-empty `messages` list of Cohere messages (roles system, user,
 *   assistant, tool; tool messages with `tool_call_id`; assistant tool calls with id, type and
 *   string arguments), only fields of the v2 Chat API, `tool_choice` REQUIRED/NONE only with
 *   `tools`. With tools and no tool result yet (and not NONE) it calls the first tool with
 *   `{"city":"Paris"}` after a tool plan; else it answers `reply`. Whole, or as Cohere's event
 *   stream (`reply` in `chunks` content deltas, tool arguments in three deltas).
 * - `POST /v2/embed`: `texts`, `input_type`, `embedding_types` including `float`; each text gets
 *   `vector(i)`; billed input tokens are the words of all texts.
 * - `POST /v2/rerank`: `query`, `documents` as strings (v2 takes no objects and no
 *   `return_documents`); scores are the share of query words a document contains, best first,
 *   `top_n` kept; one search unit.
 * Invalid bodies get Cohere's 400 `{"message": "invalid request: …"}`.
 */

export interface CohereBehaviour {
  apiKey: string;
  reply: string;
  chunks: number;
  usage: { input: number; output: number; billedInput: number; billedOutput: number; cached: number };
  failWith?: { status: number; body: unknown };
}

export interface CohereRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
}

export type CohereMock = ListeningMock<CohereBehaviour, CohereRequest>;

const defaults = (): CohereBehaviour => ({
  apiKey: 'co-mock-7f3a9c1e5b',
  reply: 'Bonjour depuis Cohere — ça marche. ✅',
  chunks: 4,
  usage: { input: 71, output: 13, billedInput: 5, billedOutput: 13, cached: 0 },
});

/** The embedding the mock gives the text at `index`: float32-exact values and one that is not. */
export const vector = (index: number): number[] => [0.5, -0.25, index + 0.125, 0.1];

const CHAT_FIELDS = new Set([
  'model',
  'messages',
  'stream',
  'tools',
  'strict_tools',
  'documents',
  'citation_options',
  'response_format',
  'safety_mode',
  'max_tokens',
  'stop_sequences',
  'temperature',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'k',
  'p',
  'logprobs',
  'tool_choice',
  'thinking',
]);

/** Why a chat body is refused, or undefined. */
function chatProblem(body: Json): string | undefined {
  const unknown = Object.keys(body).find((field) => !CHAT_FIELDS.has(field));
  if (unknown) return `invalid request: unknown field: parameter ${unknown} is not a valid field`;
  if (typeof body.model !== 'string' || !body.model) return 'invalid request: model is required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'invalid request: messages is required';
  for (const [index, message] of body.messages.entries()) {
    if (!isRecord(message)) return `invalid request: messages[${index}] must be an object`;
    const { role } = message;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
      return `invalid request: messages[${index}].role must be one of system, user, assistant, tool`;
    }
    if (role === 'tool' && typeof message.tool_call_id !== 'string') {
      return `invalid request: messages[${index}].tool_call_id is required`;
    }
    if (role !== 'assistant' && message.content === undefined)
      return `invalid request: messages[${index}].content is required`;
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
      if (
        !isRecord(call) ||
        typeof call.id !== 'string' ||
        call.type !== 'function' ||
        typeof fn.arguments !== 'string'
      ) {
        return `invalid request: messages[${index}].tool_calls are malformed`;
      }
    }
  }
  if (body.tool_choice !== undefined) {
    if (body.tool_choice !== 'REQUIRED' && body.tool_choice !== 'NONE')
      return 'invalid request: tool_choice must be REQUIRED or NONE';
    if (!Array.isArray(body.tools)) return 'invalid request: tool_choice requires tools';
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') return 'invalid request: stream must be a boolean';
  return undefined;
}

function chat(behaviour: CohereBehaviour, body: Json, response: ServerResponse): void {
  const messages = body.messages as Json[];
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  const tool = (tools[0]?.function as Json | undefined)?.name;
  const calling = typeof tool === 'string' && messages.at(-1)?.role !== 'tool' && body.tool_choice !== 'NONE';
  const { usage: counts } = behaviour;
  const usage = {
    billed_units: { input_tokens: counts.billedInput, output_tokens: counts.billedOutput },
    tokens: { input_tokens: counts.input, output_tokens: counts.output },
    ...(counts.cached ? { cached_tokens: counts.cached } : {}),
  };
  const plan = 'I will look up the weather.';
  const call = { id: 'get_weather_mock1', type: 'function', function: { name: tool, arguments: '{"city": "Paris"}' } };
  const finish = calling ? 'TOOL_CALL' : 'COMPLETE';
  if (body.stream !== true) {
    const message = calling
      ? { role: 'assistant', tool_plan: plan, tool_calls: [call] }
      : { role: 'assistant', content: [{ type: 'text', text: behaviour.reply }] };
    sendJson(response, 200, { id: 'c14c80c3-18eb-4519-9460-6c92edd8cfb4', message, finish_reason: finish, usage });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (data: Json) => response.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
  send({
    id: '29f14a5a-11de-4cae-9800-25e4747408ea',
    type: 'message-start',
    delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
  });
  if (calling) {
    send({ type: 'tool-plan-delta', delta: { message: { tool_plan: plan } } });
    send({
      type: 'tool-call-start',
      index: 1,
      delta: { message: { tool_calls: { ...call, function: { name: tool, arguments: '' } } } },
    });
    for (const fragment of ['{"ci', 'ty": "Pa', 'ris"}']) {
      send({
        type: 'tool-call-delta',
        index: 1,
        delta: { message: { tool_calls: { function: { arguments: fragment } } } },
      });
    }
    send({ type: 'tool-call-end', index: 1 });
  } else {
    send({ type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } });
    for (const text of pieces(behaviour.reply, behaviour.chunks)) {
      send({ type: 'content-delta', index: 0, delta: { message: { content: { text } } } });
    }
    send({ type: 'content-end', index: 0 });
  }
  send({ type: 'message-end', delta: { finish_reason: finish, usage } });
  response.end();
}

function embed(body: Json, response: ServerResponse): void {
  const { texts } = body;
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((text) => typeof text === 'string')) {
    sendJson(response, 400, { message: 'invalid request: texts must be a non-empty list of strings' });
    return;
  }
  if (typeof body.input_type !== 'string') {
    sendJson(response, 400, { message: 'invalid request: valid input_type must be provided with the provided model' });
    return;
  }
  if (!Array.isArray(body.embedding_types) || !body.embedding_types.includes('float')) {
    sendJson(response, 400, { message: 'invalid request: embedding_types must include float' });
    return;
  }
  const words = (texts as string[]).reduce((total, text) => total + text.split(/\s+/).filter(Boolean).length, 0);
  sendJson(response, 200, {
    id: 'da6e531f-54c6-4a73-bf92-f60566d8d753',
    embeddings: { float: texts.map((_text, index) => vector(index)) },
    texts,
    meta: { api_version: { version: '2' }, billed_units: { input_tokens: words } },
    response_type: 'embeddings_by_type',
  });
}

function rerank(body: Json, response: ServerResponse): void {
  const { query, documents } = body;
  if ('return_documents' in body) {
    sendJson(response, 400, {
      message: 'invalid request: unknown field: parameter return_documents is not a valid field',
    });
    return;
  }
  if (typeof query !== 'string' || !Array.isArray(documents) || !documents.every((d) => typeof d === 'string')) {
    sendJson(response, 400, { message: 'invalid request: query and documents (strings) are required' });
    return;
  }
  const words = query.toLowerCase().match(/\w+/g) ?? [];
  const scored = (documents as string[]).map((document, index) => {
    const text = document.toLowerCase();
    const hits = words.filter((word) => text.includes(word)).length;
    return { index, relevance_score: Math.round((hits / Math.max(1, words.length)) * 1000) / 1000 };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const topN = typeof body.top_n === 'number' ? body.top_n : scored.length;
  sendJson(response, 200, {
    results: scored.slice(0, topN),
    id: '07734bd2-2473-4f07-94e1-0d9f0e6843cf',
    meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
  });
}

export async function startCohereMock(): Promise<CohereMock> {
  const state = { behaviour: defaults(), received: [] as CohereRequest[] };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '/';
    let body: Json = {};
    try {
      const parsed: unknown = text ? JSON.parse(text) : {};
      if (isRecord(parsed)) body = parsed;
    } catch {
      sendJson(response, 400, { message: 'invalid request: body is not valid JSON' });
      return;
    }
    state.received.push({ path, headers: request.headers, body });
    const { behaviour } = state;
    if (request.headers.authorization !== `Bearer ${behaviour.apiKey}`) {
      sendJson(response, 401, { id: 'a1b2c3d4-0000-4000-8000-000000000001', message: 'invalid api token' });
      return;
    }
    if (request.method !== 'POST' || !String(request.headers['content-type']).startsWith('application/json')) {
      sendJson(response, 400, { message: 'invalid request: a JSON POST is required' });
      return;
    }
    if (behaviour.failWith) {
      sendJson(response, behaviour.failWith.status, behaviour.failWith.body);
      return;
    }
    switch (path) {
      case '/v2/chat': {
        const problem = chatProblem(body);
        if (problem) sendJson(response, 400, { message: problem });
        else chat(behaviour, body, response);
        return;
      }
      case '/v2/embed':
        embed(body, response);
        return;
      case '/v2/rerank':
        rerank(body, response);
        return;
      default:
        sendJson(response, 404, { message: `path ${path} not found` });
    }
  });
  return listenMock(server, state, defaults);
}
