import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';
import { type ListeningMock, listenMock, pieces, sendJson } from '../../mocks/mock-server.js';

/**
 * A local stand-in for `api.coze.com`'s Chat API v3, for the end-to-end tests:
 *
 * - `POST /v3/chat` with `Authorization: Bearer <token>` (else HTTP 401 `{code: 4100, msg}`),
 *   the documented fields only: `bot_id` of a published bot (else `{code: 4200}` with HTTP 200),
 *   a non-empty `user_id`, `additional_messages` of `{role: user|assistant, type, content,
 *   content_type: text|object_string}` (object_string content: a JSON list of `{type: text, text}`
 *   and `{type: image|file, file_url|file_id}`), `auto_save_history`, and `stream`: a chat that
 *   neither streams nor saves its history is refused (`{code: 4000}`), as Coze documents.
 * - The stream: `conversation.chat.created`, `…in_progress`, the reply in `conversation.message.delta`
 *   pieces of an `answer`, that answer again in `conversation.message.completed`, a `verbose`
 *   and a `follow_up` message (not the reply), `conversation.chat.completed` with the usage, `done`.
 *   `failWith` answers `{code, msg}` with HTTP 200 instead; `failInChat` sends
 *   `conversation.chat.failed` with that `last_error` after the chat starts.
 * - A non-streamed chat (with history saved) answers the chat object only, as Coze does.
 */

export interface CozeBehaviour {
  token: string;
  botId: string;
  reply: string;
  chunks: number;
  usage: { input: number; output: number };
  failWith?: { code: number; msg: string };
  failInChat?: { code: number; msg: string };
}

export interface CozeRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
}

export type CozeMock = ListeningMock<CozeBehaviour, CozeRequest>;

export const cozeDefaults = (): CozeBehaviour => ({
  token: 'pat_mockCoze0123456789abcdef',
  botId: '7379462189365198898',
  reply: 'Coze bot here — 你好 ✅',
  chunks: 3,
  usage: { input: 31, output: 9 },
});

const FIELDS = new Set([
  'bot_id',
  'user_id',
  'additional_messages',
  'stream',
  'custom_variables',
  'auto_save_history',
  'meta_data',
  'extra_params',
  'shortcut_command',
  'parameters',
]);

function objectStringProblem(content: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return 'object_string content is not JSON';
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return 'object_string content must be a non-empty list';
  for (const item of parsed) {
    if (!isRecord(item)) return 'object_string items must be objects';
    if (item.type === 'text' && typeof item.text === 'string') continue;
    if (
      (item.type === 'image' || item.type === 'file') &&
      (typeof item.file_url === 'string' || typeof item.file_id === 'string')
    ) {
      if (typeof item.file_url === 'string' && !/^https?:\/\//.test(item.file_url)) return 'file_url must be a URL';
      continue;
    }
    return `invalid object_string item ${JSON.stringify(item)}`;
  }
  return undefined;
}

/** Why Coze refuses a chat body (its documented fields and message shapes), or undefined. */
export function bodyProblem(body: Json): string | undefined {
  const unknown = Object.keys(body).find((field) => !FIELDS.has(field));
  if (unknown) return `unknown field ${unknown}`;
  if (typeof body.user_id !== 'string' || !body.user_id) return 'user_id is required';
  if (body.stream !== true && body.auto_save_history === false) {
    return 'auto_save_history must be true when stream is false';
  }
  if (!Array.isArray(body.additional_messages) || body.additional_messages.length === 0) {
    return 'additional_messages is required';
  }
  for (const message of body.additional_messages) {
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) return 'invalid role';
    if (typeof message.content !== 'string') return 'content must be a string';
    if (message.content_type === 'object_string') {
      const problem = objectStringProblem(message.content);
      if (problem) return problem;
    } else if (message.content_type !== 'text') {
      return `invalid content_type ${String(message.content_type)}`;
    }
  }
  return undefined;
}

function chatStream(behaviour: CozeBehaviour, body: Json, response: ServerResponse): void {
  const ids = { chat: '7382159487131697202', conversation: '7381473525342978089', answer: '7382159494123470858' };
  const chat = (status: string, extra: Json = {}) => ({
    id: ids.chat,
    conversation_id: ids.conversation,
    bot_id: body.bot_id,
    created_at: 1718792949,
    last_error: { code: 0, msg: '' },
    status,
    usage: { token_count: 0, output_count: 0, input_count: 0 },
    ...extra,
  });
  const message = (type: string, content: string, id = ids.answer) => ({
    id,
    conversation_id: ids.conversation,
    bot_id: body.bot_id,
    role: 'assistant',
    type,
    content,
    content_type: 'text',
    chat_id: ids.chat,
  });
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (event: string, data: unknown) =>
    response.write(`event:${event}\ndata:${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  send('conversation.chat.created', chat('created'));
  send('conversation.chat.in_progress', chat('in_progress'));
  if (behaviour.failInChat) {
    send('conversation.chat.failed', chat('failed', { last_error: behaviour.failInChat }));
    send('done', '"[DONE]"');
    response.end();
    return;
  }
  for (const text of pieces(behaviour.reply, behaviour.chunks))
    send('conversation.message.delta', message('answer', text));
  send('conversation.message.completed', message('answer', behaviour.reply));
  const finish = JSON.stringify({ msg_type: 'generate_answer_finish', data: '{"finish_reason":0}' });
  send('conversation.message.completed', message('verbose', finish, '7382159494123470859'));
  send('conversation.message.completed', message('follow_up', 'Want to know more?', '7382159494123470860'));
  const { input, output } = behaviour.usage;
  const usage = { token_count: input + output, output_count: output, input_count: input };
  send('conversation.chat.completed', chat('completed', { completed_at: 1718792950, usage }));
  send('done', '"[DONE]"');
  response.end();
}

export async function startCozeMock(): Promise<CozeMock> {
  const state = { behaviour: cozeDefaults(), received: [] as CozeRequest[] };
  const server = createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      let body: Json = {};
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
        if (isRecord(parsed)) body = parsed;
      } catch {
        // Refused below.
      }
      const path = (incoming.url ?? '/').split('?')[0] ?? '/';
      state.received.push({ path, headers: incoming.headers, body });
      const { behaviour } = state;
      const logid = { detail: { logid: '20241210152726467C48D89D6DB2F3A5A7' } };
      if (incoming.method !== 'POST' || path !== '/v3/chat') {
        sendJson(response, 404, { code: 4004, msg: 'not found', ...logid });
        return;
      }
      if (incoming.headers.authorization !== `Bearer ${behaviour.token}`) {
        sendJson(response, 401, { code: 4100, msg: 'authentication is invalid', ...logid });
        return;
      }
      if (behaviour.failWith) {
        sendJson(response, 200, { ...behaviour.failWith, ...logid });
        return;
      }
      if (body.bot_id !== behaviour.botId) {
        sendJson(response, 200, { code: 4200, msg: `bot ${String(body.bot_id)} does not exist`, ...logid });
        return;
      }
      const problem = bodyProblem(body);
      if (problem) {
        sendJson(response, 200, { code: 4000, msg: `invalid parameter: ${problem}`, ...logid });
        return;
      }
      if (body.stream !== true) {
        sendJson(response, 200, { code: 0, msg: '', data: { id: '1', status: 'in_progress' } });
        return;
      }
      chatStream(behaviour, body, response);
    });
  });
  return listenMock(server, state, cozeDefaults);
}
