import { createHash } from 'node:crypto';
import { fieldError } from '../../../platform/errors.js';
import { readMessages } from '../block-messages.js';
import { hasNonTextParts, type TextImageBuilders, textImageParts, textOnly } from '../text-parts.js';
import type { AdapterContext, ChatMessage, ChatRequest, Json, UpstreamCall } from '../types.js';

/**
 * OpenAI chat → Coze's Chat API v3 (`POST {base}/v3/chat`, a personal access token as bearer):
 * `{bot_id, user_id, stream, auto_save_history: false, additional_messages}`. The bot is the
 * model: `coze-<botId>` (the reference's naming) or the bare bot id. The conversation is sent
 * whole as `additional_messages` (Coze reads the last one as the question): user turns as
 * `question`s, assistant turns as `answer`s. Coze messages have no system role, so system text is
 * put before the first user turn. Images go as `object_string` content with their https URL
 * (Coze fetches it); data URLs would need an upload to Coze first and are refused, as are audio,
 * files and function tools (a bot's tools are its own plugins). The answer is always asked for
 * as a stream: Coze's non-streamed mode only starts the chat and must be polled for the reply.
 */

export const COZE_DEFAULT_BASE = 'https://api.coze.com';

/** The bot id a model name stands for. */
export function botIdOf(model: string): string {
  const id = model.startsWith('coze-') ? model.slice('coze-'.length) : model;
  if (!/^\w[\w-]*$/.test(id)) throw new Error(`model: "${model}" is not a Coze bot (coze-<botId> or a bot id)`);
  return id;
}

/** `{base}/v3/chat`, whatever API path the channel's base URL was copied with. */
export function cozeChatUrl(baseUrl: string): string {
  const base = (baseUrl.trim() || COZE_DEFAULT_BASE).replace(/\/+$/, '').replace(/\/(v3|open_api\/v2)(\/chat)?$/, '');
  return `${base}/v3/chat`;
}

/** The request's `user`, or a stable id per channel key (never the key itself). */
export function cozeUserId(request: ChatRequest, key: string): string {
  if (typeof request.user === 'string' && request.user.trim()) return request.user.trim().slice(0, 128);
  return `one-hub-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

type CozeObject = { type: 'text'; text: string } | { type: 'image'; file_url: string };

const cozeParts: TextImageBuilders<CozeObject> = {
  vendor: 'Coze',
  text: (text) => ({ type: 'text', text }),
  image: (url, at) => {
    if (!/^https?:\/\//i.test(url)) {
      throw fieldError(`${at}.image_url.url`, 'Coze takes images by http(s) URL only, not inline data');
    }
    return { type: 'image', file_url: url };
  },
};

/** A user turn, with the system text (if any) put first. */
function question(content: ChatMessage['content'], preface: string, path: string): Json {
  if (!hasNonTextParts(content)) {
    const text = textOnly(content, path);
    return { role: 'user', type: 'question', content_type: 'text', content: preface ? `${preface}\n\n${text}` : text };
  }
  const objects = textImageParts(content, path, cozeParts);
  const all: CozeObject[] = preface ? [{ type: 'text', text: preface }, ...objects] : objects;
  return { role: 'user', type: 'question', content_type: 'object_string', content: JSON.stringify(all) };
}

export function cozeMessages(messages: ChatMessage[]): Json[] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw fieldError('messages', 'a non-empty list of messages is required');
  }
  const system: string[] = [];
  const out: Json[] = [];
  let prefaced = false;
  readMessages(messages, {
    system(message, path) {
      system.push(textOnly(message.content, `${path}.content`));
    },
    user(message, path) {
      out.push(question(message.content, prefaced ? '' : system.join('\n\n'), `${path}.content`));
      prefaced = true;
    },
    assistant(message, path) {
      if (message.tool_calls?.length) throw fieldError(`${path}.tool_calls`, 'Coze bots take no function tools');
      out.push({
        role: 'assistant',
        type: 'answer',
        content_type: 'text',
        content: textOnly(message.content, `${path}.content`),
      });
    },
    tool(_message, path) {
      throw fieldError(`${path}.role`, 'Coze bots take no tool results (their tools are their own plugins)');
    },
  });
  if (!prefaced) {
    if (system.length === 0) throw fieldError('messages', 'a user message is required');
    out.push({ role: 'user', type: 'question', content_type: 'text', content: system.join('\n\n') });
  }
  return out;
}

export function cozeChatCall(request: ChatRequest, context: AdapterContext): UpstreamCall {
  if (Array.isArray(request.tools) && request.tools.length > 0) {
    throw fieldError('tools', "Coze bots take no function tools; a bot's tools are its own plugins");
  }
  const body = {
    bot_id: botIdOf(context.upstreamModel),
    user_id: cozeUserId(request, context.key),
    stream: true,
    auto_save_history: false,
    additional_messages: cozeMessages(request.messages),
  };
  return {
    url: cozeChatUrl(context.baseUrl),
    headers: {
      ...context.headers,
      authorization: `Bearer ${context.key}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  };
}
