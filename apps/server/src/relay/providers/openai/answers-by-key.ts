import type { ChatAdapter } from '../types.js';
import { openAiAdapter } from './adapter.js';

type AnswerReaders = Pick<ChatAdapter, 'parseChat' | 'decodeStream'>;

/**
 * How a vendor whose channels hold either native credentials or a plain API key (Baidu, Hunyuan)
 * reads answers: with its own readers when `native(key)` finds credentials, else as OpenAI's,
 * since a plain key calls the vendor's OpenAI-compatible API.
 */
export function answerReadersByKey(native: (key: string) => unknown, readers: AnswerReaders): AnswerReaders {
  return {
    parseChat: (body, context) => (native(context.key) ? readers : openAiAdapter).parseChat(body, context),
    decodeStream: (context) => (native(context.key) ? readers : openAiAdapter).decodeStream(context),
  };
}
