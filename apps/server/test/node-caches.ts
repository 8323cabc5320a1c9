import { type Cache, createMemoryCache, createRedisCache } from '../src/platform/cache/index.js';
import { randomString } from '../src/platform/crypto.js';

/**
 * The caches two nodes would hold, by kind: one memory cache both share (nodes in one process),
 * and with TEST_REDIS_URL two Redis connections under one fresh prefix, as separate processes
 * would have. For `describe.each`.
 */
export function twoNodeCaches(): Array<[string, () => [Cache, Cache]]> {
  const redisUrl = process.env.TEST_REDIS_URL;
  const memory = (): [Cache, Cache] => {
    const shared = createMemoryCache();
    return [shared, shared];
  };
  if (!redisUrl) return [['memory', memory]];
  const redis = (): [Cache, Cache] => {
    const prefix = `onehub-test:${randomString(8)}:`;
    return [createRedisCache(redisUrl, prefix), createRedisCache(redisUrl, prefix)];
  };
  return [
    ['memory', memory],
    ['redis', redis],
  ];
}

/** Closes what twoNodeCaches made, once each. */
export async function closeNodeCaches([first, second]: [Cache, Cache]): Promise<void> {
  await first.close();
  if (second !== first) await second.close();
}
