import { createHash } from 'node:crypto';
import type { OptionReader } from '../../domain/options.js';
import type { Cache } from '../../platform/cache/index.js';
import type { CachedChat, ChatCache } from './types.js';

/**
 * The chat cache (ChatCacheEnabled): a user's non-streamed chat request that repeats one answered
 * within ChatCacheExpireMinute minutes (same group, model, messages and every other parameter) is
 * answered with the stored answer, without calling an upstream, and billed at ChatCacheRatio of
 * what the original call cost (its usage). Entries are per user, so nobody is served another
 * user's answer; a key whose `chat_cache` setting is off neither reads nor fills it. Kept in the
 * shared cache (Redis when configured, else this process's memory), keyed by a SHA-256 of the request.
 */
/** The largest answer kept; longer ones are answered but not cached. */
const MAX_BODY_BYTES = 512 * 1024;
const CHAT_PATH = '/v1/chat/completions';

export function createChatCache(
  cache: Pick<Cache, 'get' | 'set'>,
  options: Pick<OptionReader, 'getBoolean' | 'getNumber'>,
): ChatCache {
  return {
    keyFor(endpoint, attempt) {
      if (!options.getBoolean('ChatCacheEnabled')) return undefined;
      const { input, caller } = attempt;
      if (endpoint.path !== CHAT_PATH || input.stream || !caller.setting.chat_cache) return undefined;
      const { stream: _stream, stream_options: _options, ...fields } = input.fields as Record<string, unknown>;
      const digest = createHash('sha256')
        .update(JSON.stringify([caller.user.id, attempt.group, input.model, fields]))
        .digest('hex');
      return `chat-cache:${digest}`;
    },
    async read(key) {
      const stored = await cache.get(key);
      if (!stored) return undefined;
      try {
        return JSON.parse(stored) as CachedChat;
      } catch {
        return undefined;
      }
    },
    async write(key, answer) {
      if (answer.status !== 200 || !answer.contentType.includes('json')) return;
      const body = typeof answer.body === 'string' ? answer.body : answer.body.toString('utf8');
      if (Buffer.byteLength(body) > MAX_BODY_BYTES) return;
      const entry: CachedChat = { contentType: answer.contentType, body, usage: answer.usage };
      await cache.set(key, JSON.stringify(entry), Math.max(1, options.getNumber('ChatCacheExpireMinute')) * 60);
    },
    ratio: () => Math.min(1, Math.max(0, options.getNumber('ChatCacheRatio'))),
  };
}
