import { EventEmitter } from 'node:events';
import type { Cache } from './types.js';

interface Entry {
  value: string;
  expiresAt: number;
}

export function createMemoryCache(now: () => number = Date.now): Cache {
  const entries = new Map<string, Entry>();
  const bus = new EventEmitter();
  bus.setMaxListeners(0);

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const expiry = (ttlSeconds?: number) => (ttlSeconds ? now() + ttlSeconds * 1000 : Number.POSITIVE_INFINITY);

  return {
    kind: 'memory',
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlSeconds) {
      entries.set(key, { value, expiresAt: expiry(ttlSeconds) });
    },
    async delete(key) {
      entries.delete(key);
    },
    async increment(key, ttlSeconds) {
      const entry = live(key);
      const value = (entry ? Number(entry.value) : 0) + 1;
      entries.set(key, { value: String(value), expiresAt: entry?.expiresAt ?? expiry(ttlSeconds) });
      return value;
    },
    async publish(topic, message = '') {
      bus.emit(topic, message);
    },
    async subscribe(topic, handler) {
      bus.on(topic, handler);
    },
    async close() {
      entries.clear();
      bus.removeAllListeners();
    },
  };
}
