import type { Redis } from 'ioredis';

/**
 * Node-local slices of a shared token bucket (issue 38), so a steady stream of requests under an
 * RPM limit of 60 or more costs a Redis round trip per slice, not per request. A node takes up to
 * `slice` tokens from the shared bucket in one script and admits requests from them locally; when
 * they run out, or once the slice is LEASE_MS old, the next request gives the unused tokens back
 * and takes a fresh slice in the same script. Every admission is a token the shared bucket let go,
 * so the nodes together never admit more than the limit; the cost of leasing is the other way: the
 * tokens a node holds unused (at most MAX_SHARE of the burst, for at most LEASE_MS) are not
 * available to the others, so with N nodes refusals can begin up to N × MAX_SHARE of the burst early.
 * The slice starts at one token and doubles while slices are used up within LEASE_MS, so a key
 * used now and then takes what it uses, and a small limit (burst under 20) stays per request.
 */
const LEASE_MS = 1000;

export interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** A token bucket refilling RPM/60 per second with a burst of ten seconds' worth. */
export function bucketShape(perMinute: number): { ratePerSecond: number; capacity: number } {
  const ratePerSecond = perMinute / 60;
  return { ratePerSecond, capacity: Math.max(1, Math.floor(ratePerSecond * 10)) };
}
/** The largest share of a bucket's burst one node holds at a time. */
const MAX_SHARE = 0.05;

/**
 * KEYS: bucket. ARGV: rate per second, capacity, tokens given back, tokens wanted.
 * → { tokens granted (0 when refused), wait in ms before a token is there }.
 */
const LEASE = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or capacity
local updated = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + (now - updated) / 1000 * rate + tonumber(ARGV[3]))
local granted = math.min(tonumber(ARGV[4]), math.floor(tokens))
local wait = 0
if granted >= 1 then tokens = tokens - granted else granted = 0; wait = math.ceil((1 - tokens) / rate * 1000) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 2000))
return {granted, wait}`;

interface Slice {
  /** Tokens this node holds and may admit from. */
  left: number;
  takenAt: number;
  /** Tokens asked for at the next refill. */
  size: number;
  /** The limit the tokens were taken under: a changed limit starts afresh. */
  perMinute: number;
  refill: Promise<void> | null;
  /** Requests of this node waiting for the refill under way: the next slice covers them all. */
  waiting: number;
  refusedUntil: number;
}

export interface BucketLeases {
  take(redisKey: string, perMinute: number): Promise<RateDecision>;
}

export function createBucketLeases(redis: Redis, now: () => number = () => Date.now()): BucketLeases {
  const slices = new Map<string, Slice>();

  async function refill(redisKey: string, slice: Slice): Promise<void> {
    const { ratePerSecond, capacity } = bucketShape(slice.perMinute);
    const maxSize = Math.max(1, Math.floor(capacity * MAX_SHARE));
    const current = now();
    // Used up within the lease: the next slice may be bigger; left over: it was big enough.
    if (slice.left <= 0 && current - slice.takenAt < LEASE_MS) slice.size = Math.min(maxSize, slice.size * 2);
    else if (slice.left > 0) slice.size = Math.max(1, Math.min(maxSize, Math.ceil(slice.size / 2)));
    const givenBack = Math.max(0, slice.left);
    const wanted = Math.min(maxSize, Math.max(slice.size, slice.waiting));
    slice.left = 0;
    const [granted, waitMs] = (await redis.eval(LEASE, 1, redisKey, ratePerSecond, capacity, givenBack, wanted)) as [
      number,
      number,
    ];
    slice.left = Number(granted);
    slice.takenAt = now();
    slice.refusedUntil = slice.left > 0 ? 0 : slice.takenAt + Math.max(1, Number(waitMs));
  }

  function admit(slice: Slice): RateDecision | undefined {
    if (slice.left >= 1 && now() - slice.takenAt < LEASE_MS) {
      slice.left -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    if (slice.refusedUntil > now())
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((slice.refusedUntil - now()) / 1000)) };
    return undefined;
  }

  return {
    async take(redisKey, perMinute) {
      let slice = slices.get(redisKey);
      if (!slice || slice.perMinute !== perMinute) {
        if (slices.size > 50_000) slices.clear();
        slice = { left: 0, takenAt: 0, size: 1, perMinute, refill: null, waiting: 0, refusedUntil: 0 };
        slices.set(redisKey, slice);
      }
      // Each refill that grants a token admits a request, and one that grants none sets a refusal,
      // so this ends; the bound is only a guard.
      for (let attempt = 0; attempt < 100; attempt++) {
        const decision = admit(slice);
        if (decision) return decision;
        // One refill per key at a time: requests arriving meanwhile share its tokens.
        const current = slice;
        if (!current.refill) {
          current.refill = refill(redisKey, current).finally(() => {
            current.refill = null;
          });
        }
        current.waiting += 1;
        try {
          await current.refill;
        } finally {
          current.waiting -= 1;
        }
      }
      return { allowed: false, retryAfterSeconds: 1 };
    },
  };
}
