import { EventEmitter } from 'node:events';
import type { Cache } from './types.js';

interface Entry {
  value: string;
  expiresAt: number;
}

/** The in-process cache; `size` (entries held, expired ones not yet swept included) is for tests. */
export function createMemoryCache(now: () => number = Date.now): Cache & { readonly size: number } {
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
  // Keys can come from clients (a sign-in name, a Turnstile token): entries that expired unread are
  // swept whenever the map has doubled since the last sweep, so it cannot grow without bound.
  let sweepAt = 1024;
  const store = (key: string, entry: Entry) => {
    entries.set(key, entry);
    if (entries.size < sweepAt) return;
    const time = now();
    for (const [name, stored] of entries) if (stored.expiresAt <= time) entries.delete(name);
    sweepAt = Math.max(1024, entries.size * 2);
  };

  return {
    kind: 'memory',
    get size() {
      return entries.size;
    },
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlSeconds) {
      store(key, { value, expiresAt: expiry(ttlSeconds) });
    },
    async delete(key) {
      entries.delete(key);
    },
    async deleteIfEquals(key, value) {
      if (live(key)?.value !== value) return false;
      return entries.delete(key);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      if (live(key)) return false;
      store(key, { value, expiresAt: expiry(ttlSeconds) });
      return true;
    },
    async increment(key, ttlSeconds) {
      const entry = live(key);
      const value = (entry ? Number(entry.value) : 0) + 1;
      store(key, { value: String(value), expiresAt: entry?.expiresAt ?? expiry(ttlSeconds) });
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
