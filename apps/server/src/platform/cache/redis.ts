import { once } from 'node:events';
import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import type { Redis } from 'ioredis';
import type { Cache } from './types.js';

// Loaded only when Redis is configured: a single node without it does not pay for the client.
const load = createRequire(import.meta.url);

export function createRedisClient(url: string): Redis {
  const { Redis } = load('ioredis') as typeof IoRedis;
  return new Redis(url, { maxRetriesPerRequest: 3, enableOfflineQueue: true, lazyConnect: false });
}

const DELETE_IF_EQUALS = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/** `prefix` namespaces keys and topics, so several deployments (or test runs) can share one Redis. */
export function createRedisCache(url: string, prefix = 'onehub:'): Cache {
  const PREFIX = prefix;
  const client = createRedisClient(url);
  // A subscribed connection can do nothing else, so pub/sub gets its own.
  // Named, so an operator (or a test) can tell it apart in CLIENT LIST.
  const subscriber = client.duplicate({ connectionName: `${PREFIX}subscriber` });
  const handlers = new Map<string, Array<(message: string) => void>>();
  const resubscribed: Array<() => void> = [];
  let connectedBefore = false;
  // ioredis subscribes again by itself after a reconnect; what was published meanwhile is lost.
  subscriber.on('ready', () => {
    if (connectedBefore) for (const listener of resubscribed) listener();
    connectedBefore = true;
  });

  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of handlers.get(channel.slice(PREFIX.length)) ?? []) handler(message);
  });

  return {
    kind: 'redis',
    async get(key) {
      return (await client.get(PREFIX + key)) ?? undefined;
    },
    async set(key, value, ttlSeconds) {
      if (ttlSeconds) await client.set(PREFIX + key, value, 'EX', ttlSeconds);
      else await client.set(PREFIX + key, value);
    },
    async delete(key) {
      await client.del(PREFIX + key);
    },
    async deleteIfEquals(key, value) {
      // One script runs alone on the server, so the compare and the delete cannot interleave.
      const deleted = await client.eval(DELETE_IF_EQUALS, 1, PREFIX + key, value);
      return Number(deleted) === 1;
    },
    async setIfAbsent(key, value, ttlSeconds) {
      return (await client.set(PREFIX + key, value, 'EX', ttlSeconds, 'NX')) === 'OK';
    },
    async increment(key, ttlSeconds) {
      const [[, value] = [], [, ttl] = []] =
        (await client
          .multi()
          .incr(PREFIX + key)
          .ttl(PREFIX + key)
          .exec()) ?? [];
      if (ttl === -1) await client.expire(PREFIX + key, ttlSeconds);
      return Number(value);
    },
    async publish(topic, message = '') {
      await client.publish(PREFIX + topic, message);
    },
    async subscribe(topic, handler) {
      const existing = handlers.get(topic);
      if (existing) {
        existing.push(handler);
        return;
      }
      handlers.set(topic, [handler]);
      // ioredis's ready check (INFO) fails on a connection already in subscriber mode.
      if (subscriber.status !== 'ready') await once(subscriber, 'ready');
      await subscriber.subscribe(PREFIX + topic);
    },
    onResubscribed(listener) {
      resubscribed.push(listener);
    },
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
