import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Requests in flight per key. `enter` answers the slot's release, or null when the key is at its
 * limit. In memory on one node; in Redis when nodes share the limit.
 */
export interface ConcurrencyGate {
  enter(key: string, limit: number): Promise<(() => void) | null>;
}

export function createMemoryConcurrencyGate(): ConcurrencyGate {
  const active = new Map<string, number>();
  return {
    async enter(key, limit) {
      const current = active.get(key) ?? 0;
      if (current >= limit) return null;
      active.set(key, current + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (active.get(key) ?? 1) - 1;
        if (left <= 0) active.delete(key);
        else active.set(key, left);
      };
    },
  };
}

/** A slot is a lease, renewed while its request runs, so a node that dies frees its slots soon after. */
const LEASE_MS = 120_000;
const RENEW_MS = 40_000;

// Drops expired leases (of nodes that died), then takes a slot if one is free.
const ENTER = `
local now = tonumber(redis.call('TIME')[1]) * 1000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1`;

const RENEW = `
local now = tonumber(redis.call('TIME')[1]) * 1000
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return 1`;

export function createRedisConcurrencyGate(
  redis: Redis,
  prefix: string,
  onError: (error: unknown) => void,
): ConcurrencyGate {
  return {
    async enter(key, limit) {
      const redisKey = `${prefix}${key}`;
      const slot = randomUUID();
      if (Number(await redis.eval(ENTER, 1, redisKey, limit, slot, LEASE_MS)) !== 1) return null;
      const renewal = setInterval(() => {
        redis.eval(RENEW, 1, redisKey, slot, LEASE_MS).catch(onError);
      }, RENEW_MS);
      renewal.unref();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        redis.zrem(redisKey, slot).catch(onError);
      };
    },
  };
}
