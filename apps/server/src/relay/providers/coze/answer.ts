import { parseJson } from '@one-hub/contracts';
import { eventData, SseSplitter } from '../../transport/sse.js';
import { oneChoiceChunks, singleChoiceCompletion } from '../completion.js';
import type { AdapterContext, ChatChunk, ChatCompletion, ChatUsage, Json, StreamDecoder } from '../types.js';
import { isRecord, namedUsage, upstreamJson } from '../values.js';

/**
 * Coze's chat stream → OpenAI. Events are named on their `event:` line:
 *
 * - `conversation.message.delta`: a piece of a message; pieces of `answer` messages are the
 *   reply (`content`, and `reasoning_content` from reasoning models). Other message types
 *   (function calls of the bot's plugins, tool output, follow-up suggestions, verbose) are the
 *   bot's own workings and are not forwarded.
 * - `conversation.message.completed`: the whole message again; forwarded only for an answer
 *   that came without pieces (cards).
 * - `conversation.chat.completed`: the end, with `usage` {token_count, output_count, input_count}.
 * - `conversation.chat.failed` (`last_error`), `error` ({code, msg}) and
 *   `conversation.chat.requires_action` (the bot wants a client-side tool result) end the answer
 *   as a failure; `done` closes the stream.
 *
 * A request Coze refuses is answered (sometimes with HTTP 200) by a JSON `{code, msg}` instead
 * of events; `cozeFailure` finds it, or a failure event, in a whole body.
 */

export interface CozeFailure {
  code: number;
  message: string;
}

function eventName(text: string): string | undefined {
  for (const line of text.split(/\r?\n/)) if (line.startsWith('event:')) return line.slice(6).trim();
  return undefined;
}

function failureOf(value: unknown): CozeFailure | undefined {
  if (!isRecord(value)) return undefined;
  const code = typeof value.code === 'number' ? value.code : Number(value.code);
  if (!Number.isFinite(code) || code === 0) return undefined;
  return { code, message: typeof value.msg === 'string' && value.msg ? value.msg : `Coze error ${code}` };
}

/** The failure a whole body stands for: a JSON error document, or a failure event of the stream. */
export function cozeFailure(body: Buffer): CozeFailure | undefined {
  const text = body.toString('utf8');
  if (text.trimStart().startsWith('{')) return failureOf(parseJson(text));
  if (!/conversation\.chat\.failed|event:\s*error/.test(text)) return undefined;
  for (const event of text.split(/\r?\n\r?\n/)) {
    const name = eventName(event);
    if (name !== 'error' && name !== 'conversation.chat.failed') continue;
    const data = parseJson(eventData(event) ?? '');
    const failure = name === 'error' ? failureOf(data) : failureOf(isRecord(data) ? data.last_error : undefined);
    if (failure) return failure;
  }
  return undefined;
}

const failed = (failure: CozeFailure) => new Error(`Coze: ${failure.message} (code ${failure.code})`);

export function usageFromCoze(usage: unknown): ChatUsage | undefined {
  return namedUsage(usage, { prompt: 'input_count', completion: 'output_count', total: 'token_count' });
}

export function cozeStreamDecoder(context: AdapterContext): StreamDecoder {
  const splitter = new SseSplitter();
  const { chunk, usageChunk } = oneChoiceChunks(context, context.upstreamModel);
  let started = false;
  let completed = false;
  /** Answer messages that came in pieces: their `completed` event repeats them. */
  const streamed = new Set<string>();

  const open = (out: ChatChunk[]) => {
    if (started) return;
    started = true;
    out.push(chunk({ role: 'assistant', content: '' }));
  };
  const isAnswer = (message: Json) =>
    (message.type === undefined || message.type === 'answer') && (message.role ?? 'assistant') === 'assistant';

  const handle = (name: string | undefined, data: Json, out: ChatChunk[]) => {
    switch (name) {
      case 'conversation.message.delta': {
        if (!isAnswer(data)) return;
        open(out);
        if (typeof data.id === 'string') streamed.add(data.id);
        if (typeof data.reasoning_content === 'string' && data.reasoning_content) {
          out.push(chunk({ reasoning_content: data.reasoning_content }));
        }
        if (typeof data.content === 'string' && data.content) out.push(chunk({ content: data.content }));
        return;
      }
      case 'conversation.message.completed':
        if (!isAnswer(data) || (typeof data.id === 'string' && streamed.has(data.id))) return;
        open(out);
        if (typeof data.content === 'string' && data.content) out.push(chunk({ content: data.content }));
        return;
      case 'conversation.chat.completed': {
        open(out);
        completed = true;
        out.push(chunk({}, 'stop'));
        const usage = usageFromCoze(data.usage);
        if (usage) out.push(usageChunk(usage));
        return;
      }
      case 'conversation.chat.failed':
        throw failed(failureOf(data.last_error) ?? { code: -1, message: 'the chat failed' });
      case 'conversation.chat.requires_action':
        throw new Error(
          'Coze: the bot asked for a client-side tool result (requires_action), which the gateway cannot give',
        );
      case 'error':
        throw failed(failureOf(data) ?? { code: -1, message: 'the stream failed' });
      default: {
        // A refusal sent as a JSON document, not events.
        const failure = name === undefined ? failureOf(data) : undefined;
        if (failure) throw failed(failure);
      }
    }
  };

  const read = (events: string[]) => {
    const out: ChatChunk[] = [];
    for (const text of events) {
      const name = eventName(text);
      const data = eventData(text);
      if (name === 'done' || data === '[DONE]' || data === '"[DONE]"') continue;
      const value = data === undefined ? parseJson(text) : upstreamJson(data, 'stream event');
      if (isRecord(value)) handle(name, value, out);
    }
    return out;
  };

  return {
    push: (bytes) => read(splitter.push(bytes)),
    end() {
      const out = read(splitter.finish());
      if (!completed) throw new Error('the Coze stream ended before the chat completed');
      return out;
    },
  };
}

/**
 * A whole answer from the stream Coze was asked for: the events gathered into one message. The
 * body was read whole by the executor, within its size limit.
 */
export function gatherCozeChat(body: Buffer, context: AdapterContext): ChatCompletion {
  const decoder = cozeStreamDecoder(context);
  const chunks = [...decoder.push(body), ...decoder.end()];
  let text = '';
  let reasoning = '';
  let usage: ChatUsage | undefined;
  for (const part of chunks) {
    if (part.usage) usage = part.usage;
    for (const choice of part.choices) {
      text += choice.delta.content ?? '';
      reasoning += choice.delta.reasoning_content ?? '';
    }
  }
  return singleChoiceCompletion(
    context,
    context.upstreamModel,
    { content: text, thoughts: reasoning ? [reasoning] : [], calls: [] },
    'stop',
    usage,
  );
}
