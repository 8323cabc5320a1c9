import type { Redis } from 'ioredis';
import { bucketShape, createBucketLeases, type RateDecision } from './rate-leases.js';

export type { RateDecision };

/**
 * Requests-per-minute limits. Below 60 RPM a fixed one-minute window starting at the window's first
 * request (in memory as in Redis, whose key expires a minute after it was made); from 60 RPM a token bucket
 * refilling RPM/60 per second with a burst of ten seconds' worth. In memory on one node, in Redis
 * (atomic scripts, Redis's clock) when several nodes share the limit; there the bucket is handed
 * out to nodes in slices (rate-leases.ts), never more than it holds.
 */
export interface RateLimiter {
  take(key: string, perMinute: number): Promise<RateDecision>;
  /**
   * Read-only, for the dashboard: requests counted against `key` now, on the scale of `perMinute`.
   * Exact for a fixed window; a token bucket keeps no count, so its drawn-down share is scaled to
   * `perMinute` (it reads `perMinute` exactly when requests start being refused).
   */
  peek(key: string, perMinute: number): Promise<number>;
}

interface WindowState {
  /** When the window's first request came (ms); the window lasts a minute from there. */
  startedAt: number;
  count: number;
}

const WINDOW_MS = 60_000;
interface BucketState {
  tokens: number;
  updatedAt: number;
}

/** `now` looks `Date.now` up at each call, so a test that fakes the process clock moves the windows too. */
export function createMemoryRateLimiter(now: () => number = () => Date.now()): RateLimiter {
  const windows = new Map<string, WindowState>();
  const buckets = new Map<string, BucketState>();
  const sweep = () => {
    if (windows.size + buckets.size < 50_000) return;
    const current = now();
    for (const [key, state] of windows) if (current - state.startedAt >= WINDOW_MS) windows.delete(key);
    for (const [key, state] of buckets) if (current - state.updatedAt > 120_000) buckets.delete(key);
  };
  return {
    async take(key, perMinute) {
      sweep();
      const current = now();
      if (perMinute < 60) {
        const found = windows.get(key);
        const state = found && current - found.startedAt < WINDOW_MS ? found : { startedAt: current, count: 0 };
        if (state.count >= perMinute)
          return { allowed: false, retryAfterSeconds: Math.ceil((state.startedAt + WINDOW_MS - current) / 1000) };
        state.count += 1;
        windows.set(key, state);
        return { allowed: true, retryAfterSeconds: 0 };
      }
      const { ratePerSecond, capacity } = bucketShape(perMinute);
      const state = buckets.get(key) ?? { tokens: capacity, updatedAt: current };
      const tokens = Math.min(capacity, state.tokens + ((current - state.updatedAt) / 1000) * ratePerSecond);
      if (tokens < 1) {
        buckets.set(key, { tokens, updatedAt: current });
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / ratePerSecond)) };
      }
      buckets.set(key, { tokens: tokens - 1, updatedAt: current });
      return { allowed: true, retryAfterSeconds: 0 };
    },
    async peek(key, perMinute) {
      const current = now();
      if (perMinute < 60) {
        const state = windows.get(key);
        return state && current - state.startedAt < WINDOW_MS ? state.count : 0;
      }
      const state = buckets.get(key);
      if (!state) return 0;
      const { ratePerSecond, capacity } = bucketShape(perMinute);
      const tokens = Math.min(capacity, state.tokens + ((current - state.updatedAt) / 1000) * ratePerSecond);
      return Math.round((perMinute * (capacity - Math.max(0, tokens))) / capacity);
    },
  };
}

const FIXED_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], 60000) end
if count > tonumber(ARGV[1]) then return {0, redis.call('PTTL', KEYS[1])} end
return {1, 0}`;

const BUCKET_LEVEL = `
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
if not state[1] then return '-1' end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
return tostring(math.min(tonumber(ARGV[2]), tonumber(state[1]) + (now - tonumber(state[2])) / 1000 * tonumber(ARGV[1])))`;

/**
 * The window is a string and the bucket a hash: each algorithm has its own Redis key, so a group
 * whose rate crosses 60 RPM does not hit the other algorithm's value (WRONGTYPE) until it expires.
 */
function redisKeyOf(prefix: string, key: string, perMinute: number): string {
  return `${prefix}${key}:${perMinute < 60 ? 'window' : 'bucket'}`;
}

export function createRedisRateLimiter(redis: Redis, prefix = 'onehub:rpm:'): RateLimiter {
  // From 60 RPM the bucket is served from node-local slices (rate-leases.ts); below, every request
  // counts in the shared window, which costs at most a few dozen round trips a minute.
  const leases = createBucketLeases(redis);
  return {
    async take(key, perMinute) {
      const redisKey = redisKeyOf(prefix, key, perMinute);
      if (perMinute >= 60) return leases.take(redisKey, perMinute);
      const [allowed, waitMs] = (await redis.eval(FIXED_WINDOW, 1, redisKey, perMinute)) as [number, number];
      return { allowed: allowed === 1, retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(waitMs / 1000)) };
    },
    async peek(key, perMinute) {
      const redisKey = redisKeyOf(prefix, key, perMinute);
      // The window's counter also counts refused requests; the limit is what was let through.
      if (perMinute < 60) return Math.min(perMinute, Number((await redis.get(redisKey)) ?? 0));
      const { ratePerSecond, capacity } = bucketShape(perMinute);
      const tokens = Number(await redis.eval(BUCKET_LEVEL, 1, redisKey, ratePerSecond, capacity));
      return tokens < 0 ? 0 : Math.round((perMinute * (capacity - Math.max(0, tokens))) / capacity);
    },
  };
}
