import { createMemoryCache } from './memory.js';
import { createRedisCache } from './redis.js';
import type { Cache } from './types.js';

export { createMemoryCache } from './memory.js';
export { createRedisCache, createRedisClient } from './redis.js';
export type { Cache } from './types.js';

export function createCache(redisUrl: string | undefined): Cache {
  return redisUrl ? createRedisCache(redisUrl) : createMemoryCache();
}
