import type { Redis } from 'ioredis';

/** Where an address stands after one more request was counted in its window. */
export interface CountedRequest {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetInMs: number;
}

/**
 * Fixed-window request counters, one per key (a limit's name and a client address). The window
 * starts at the key's first request and lasts `windowMs`; every request in it counts, refused ones
 * too, as the reference's limiter does.
 */
export interface AddressCounter {
  count(key: string, windowMs: number): Promise<CountedRequest>;
}

/** Beyond this many keys, expired windows are swept before a new key is added. */
const SWEEP_ABOVE = 10_000;

/** The counters of one process, for a single node without Redis. */
export function createMemoryAddressCounter(now: () => number = Date.now): AddressCounter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    async count(key, windowMs) {
      const current = now();
      let window = windows.get(key);
      if (!window || window.endsAt <= current) {
        if (!window && windows.size >= SWEEP_ABOVE) {
          for (const [name, state] of windows) if (state.endsAt <= current) windows.delete(name);
        }
        window = { count: 0, endsAt: current + windowMs };
        windows.set(key, window);
      }
      window.count++;
      return { count: window.count, resetInMs: window.endsAt - current };
    },
  };
}

/** One script runs alone on the server, so the count and its expiry cannot interleave between nodes. */
const COUNT_IN_WINDOW = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

/**
 * Counters in Redis, shared by every node: the key is `prefix` followed by the caller's key, for
 * example `onehub:<instance id>:ratelimit:` + `web:203.0.113.7`.
 */
export function createRedisAddressCounter(redis: Redis, prefix: string): AddressCounter {
  return {
    async count(key, windowMs) {
      const [count, ttl] = (await redis.eval(COUNT_IN_WINDOW, 1, `${prefix}${key}`, windowMs)) as [number, number];
      return { count: Number(count), resetInMs: Number(ttl) };
    },
  };
}
