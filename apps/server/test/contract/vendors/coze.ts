import { providerType } from '../../../src/domain/channel-types/registry.js';
import { bodyProblem, cozeDefaults } from '../../providers/coze/mock-upstream.js';
import {
  type Answer,
  type ErrorKind,
  isRecord,
  type Json,
  json,
  list,
  type ProviderEntry,
  type Reply,
  type Responder,
  type TokenCounts,
  tokensOnly,
} from '../scenario-mock.js';

/**
 * Coze's Chat API v3 (channel type `coze`) as api.coze.com answers it: `POST /v3/chat` with a personal
 * access token as the bearer, the bot named by `bot_id`, the conversation in
 * `additional_messages` (text, or `object_string` content holding text and image URLs). Coze's
 * non-streamed mode only starts a chat to be polled, so the gateway always asks for a stream:
 * `conversation.chat.created`, `…in_progress`, the answer in `conversation.message.delta` pieces,
 * the whole answer again in `conversation.message.completed` (with a `verbose` and a `follow_up`
 * message that are not the reply), `conversation.chat.completed` with
 * `usage: {token_count, output_count, input_count}`, and `done`. Failures are `{code, msg, detail}`:
 * HTTP 401 with 4100 for a bad token, HTTP 200 with 4013 for the rate limit and 5000 for Coze's own.
 */

const { token: TOKEN, botId: BOT_ID } = cozeDefaults();
const IDS = { chat: '7382159487131697202', conversation: '7381473525342978089', answer: '7382159494123470858' };
const LOG_ID = { detail: { logid: '20251127093015C0D1E2F3A4B5C6D7E8F9' } };

function cozeError(kind: ErrorKind): Reply {
  if (kind === 'auth') return json(401, { code: 4100, msg: 'authentication is invalid', ...LOG_ID });
  if (kind === 'rate') {
    return json(200, { code: 4013, msg: 'Your request rate exceeds the limit. Please try again later.', ...LOG_ID });
  }
  return json(200, { code: 5000, msg: 'Internal server error. Please try again later.', ...LOG_ID });
}

/** Coze counts input and output tokens only: cached prompt tokens are plain ones there. */
function cozeUsage(counts: TokenCounts): Json {
  const input = counts.input + counts.cacheRead;
  return { token_count: input + counts.output, output_count: counts.output, input_count: input };
}

/** Coze's event lines: `event:` and `data:` without a space after the colon. */
const event = (name: string, data: unknown) =>
  Buffer.from(`event:${name}\ndata:${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);

function cozeStream(answer: Answer) {
  const chat = (status: string, extra: Json = {}) => ({
    id: IDS.chat,
    conversation_id: IDS.conversation,
    bot_id: BOT_ID,
    created_at: 1_764_235_815,
    last_error: { code: 0, msg: '' },
    status,
    usage: { token_count: 0, output_count: 0, input_count: 0 },
    ...extra,
  });
  const message = (type: string, content: string, id = IDS.answer) => ({
    id,
    conversation_id: IDS.conversation,
    bot_id: BOT_ID,
    role: 'assistant',
    type,
    content,
    content_type: 'text',
    chat_id: IDS.chat,
  });
  const verbose = JSON.stringify({ msg_type: 'generate_answer_finish', data: '{"finish_reason":0}' });
  return {
    contentType: 'text/event-stream',
    head: [
      event('conversation.chat.created', chat('created')),
      event('conversation.chat.in_progress', chat('in_progress')),
    ],
    pieces: answer.pieces.map((text) => event('conversation.message.delta', message('answer', text))),
    tail: [
      event('conversation.message.completed', message('answer', answer.text)),
      event('conversation.message.completed', message('verbose', verbose, '7382159494123470859')),
      event('conversation.message.completed', message('follow_up', 'Want to know more?', '7382159494123470860')),
      event(
        'conversation.chat.completed',
        chat('completed', { completed_at: 1_764_235_816, usage: cozeUsage(answer.usage) }),
      ),
      event('done', '"[DONE]"'),
    ],
  };
}

/** Image URLs in `object_string` messages. */
function countImages(messages: unknown[]): number {
  let count = 0;
  for (const message of messages) {
    if (!isRecord(message) || message.content_type !== 'object_string') continue;
    const items: unknown = JSON.parse(String(message.content));
    for (const item of list(items)) if (isRecord(item) && item.type === 'image') count++;
  }
  return count;
}

function cozeResponder(): Responder {
  return {
    read(request) {
      if (request.method !== 'POST' || request.path !== '/v3/chat') {
        return json(404, { code: 4004, msg: 'not found', ...LOG_ID });
      }
      if (request.headers.authorization !== `Bearer ${TOKEN}`) return cozeError('auth');
      const body = request.body ?? {};
      if (body.bot_id !== BOT_ID) return json(200, { code: 4200, msg: `bot ${String(body.bot_id)} does not exist` });
      const problem = bodyProblem(body);
      if (problem) return json(200, { code: 4000, msg: `invalid parameter: ${problem}`, ...LOG_ID });
      // A chat that is not streamed would only start; the contract's answers come as a stream.
      if (body.stream !== true) return json(200, { code: 0, msg: '', data: { id: IDS.chat, status: 'in_progress' } });
      return {
        model: BOT_ID,
        stream: true,
        tools: [],
        images: countImages(list(body.additional_messages)),
        api: 'chat',
      };
    },
    whole: () => {
      throw new Error('Coze answers chats as streams only');
    },
    stream: (answer) => cozeStream(answer),
    error: (kind) => cozeError(kind),
  };
}

const ONLY_COUNTS = "Coze's usage is input, output and total token counts only";

export const cozeProvider: ProviderEntry = {
  name: 'Coze (Chat API v3)',
  type: providerType('coze'),
  model: `coze-${BOT_ID}`,
  setup: () => ({ responder: cozeResponder(), channel: (url) => ({ key: TOKEN, base_url: url }) }),
  authStatus: 502,
  usage: tokensOnly(ONLY_COUNTS),
  wholeAnswersStreamed: "Coze's non-streamed mode only starts a chat to be polled; the gateway gathers a stream",
  skip: {
    tool_call:
      "Coze bots take no function tools declared by the client (a bot's tools are its own plugins): the gateway answers 400, tested in coze/relay.test.ts",
    'tool_call stream': 'Coze bots take no function tools declared by the client: 400, as for tool_call',
    image_echo:
      'Coze takes images by http(s) URL only; the case sends inline images, which get a 400 naming the field (URL images are tested in coze/relay.test.ts)',
  },
};
