import { createMemoryCache } from './memory.js';
import { createRedisCache } from './redis.js';
import type { Cache } from './types.js';

export { createMemoryCache } from './memory.js';
export { createRedisCache, createRedisClient } from './redis.js';
export type { Cache } from './types.js';

/** `prefix` namespaces Redis keys and topics, so installations sharing one Redis stay apart. */
export function createCache(redisUrl: string | undefined, prefix?: string): Cache {
  return redisUrl ? createRedisCache(redisUrl, prefix) : createMemoryCache();
}
