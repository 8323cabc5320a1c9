import type { ChannelHealthMinute } from '@one-hub/contracts';

/**
 * The counting behind channel health (health.ts): outcomes over a sliding window held in a fixed
 * number of time buckets, and the latest latencies in a small ring, so memory per channel (or
 * channel and model pair) stays the same whatever the traffic.
 */

/** Buckets per window: the window slides in steps of a tenth of its length. */
export const BUCKETS = 10;
/** Latencies kept for the medians. */
const LATENCIES = 32;

export class OutcomeWindow {
  private readonly starts = new Array<number>(BUCKETS).fill(0);
  private readonly successes = new Array<number>(BUCKETS).fill(0);
  private readonly failures = new Array<number>(BUCKETS).fill(0);

  /** Counts one outcome at `now` in a window of `windowMs`. */
  add(now: number, windowMs: number, success: boolean): void {
    const step = Math.max(1, Math.floor(windowMs / BUCKETS));
    const start = now - (now % step);
    const slot = Math.floor(start / step) % BUCKETS;
    // A bucket from an earlier lap of the ring is reused from zero.
    if (this.starts[slot] !== start) {
      this.starts[slot] = start;
      this.successes[slot] = 0;
      this.failures[slot] = 0;
    }
    if (success) this.successes[slot] = (this.successes[slot] ?? 0) + 1;
    else this.failures[slot] = (this.failures[slot] ?? 0) + 1;
  }

  /** Successes and failures of the buckets still inside the window at `now`. */
  totals(now: number, windowMs: number): { successes: number; failures: number } {
    let successes = 0;
    let failures = 0;
    for (let slot = 0; slot < BUCKETS; slot++) {
      if (now - (this.starts[slot] ?? 0) >= windowMs) continue;
      successes += this.successes[slot] ?? 0;
      failures += this.failures[slot] ?? 0;
    }
    return { successes, failures };
  }

  clear(): void {
    this.starts.fill(0);
  }
}

/** The latest latencies of one kind (first byte, or whole duration), for a median. */
export class LatencyRing {
  private readonly values: number[] = [];
  private next = 0;
  /** The median while no value came since it was worked out (the latency strategy asks per request). */
  private cached: number | undefined;

  add(ms: number): void {
    this.cached = undefined;
    if (this.values.length < LATENCIES) this.values.push(ms);
    else this.values[this.next] = ms;
    this.next = (this.next + 1) % LATENCIES;
  }

  /** The median of what is kept; undefined with nothing kept. */
  median(): number | undefined {
    if (this.cached !== undefined || this.values.length === 0) return this.cached;
    const sorted = [...this.values].sort((left, right) => left - right);
    this.cached = sorted[Math.floor((sorted.length - 1) / 2)];
    return this.cached;
  }
}

/** Minutes of history kept per channel for the console's chart. */
export const HISTORY_MINUTES = 60;
const MINUTE_MS = 60_000;

/** Per-minute counts of the last HISTORY_MINUTES minutes in a fixed ring, so memory stays the same. */
export class MinuteHistory {
  private readonly starts = new Array<number>(HISTORY_MINUTES).fill(-1);
  private readonly successes = new Array<number>(HISTORY_MINUTES).fill(0);
  private readonly failures = new Array<number>(HISTORY_MINUTES).fill(0);
  private readonly rateLimited = new Array<number>(HISTORY_MINUTES).fill(0);
  private readonly durations = new Array<number>(HISTORY_MINUTES).fill(0);

  success(now: number, durationMs: number): void {
    const slot = this.slot(now);
    this.successes[slot] = (this.successes[slot] ?? 0) + 1;
    this.durations[slot] = (this.durations[slot] ?? 0) + durationMs;
  }

  failure(now: number, rateLimited: boolean): void {
    const slot = this.slot(now);
    const counts = rateLimited ? this.rateLimited : this.failures;
    counts[slot] = (counts[slot] ?? 0) + 1;
  }

  /** Every minute of the last hour, oldest first; minutes without traffic are zeros. */
  minutes(now: number): ChannelHealthMinute[] {
    const current = now - (now % MINUTE_MS);
    const minutes: ChannelHealthMinute[] = [];
    for (let back = HISTORY_MINUTES - 1; back >= 0; back--) {
      const at = current - back * MINUTE_MS;
      const slot = (at / MINUTE_MS) % HISTORY_MINUTES;
      const kept = this.starts[slot] === at;
      const successes = kept ? (this.successes[slot] ?? 0) : 0;
      minutes.push({
        at,
        successes,
        failures: kept ? (this.failures[slot] ?? 0) : 0,
        rate_limited: kept ? (this.rateLimited[slot] ?? 0) : 0,
        mean_latency_ms: successes > 0 ? Math.round((this.durations[slot] ?? 0) / successes) : null,
      });
    }
    return minutes;
  }

  /** The ring slot of `now`'s minute, emptied first when it still holds a minute of an earlier hour. */
  private slot(now: number): number {
    const start = now - (now % MINUTE_MS);
    const slot = (start / MINUTE_MS) % HISTORY_MINUTES;
    if (this.starts[slot] !== start) {
      this.starts[slot] = start;
      this.successes[slot] = 0;
      this.failures[slot] = 0;
      this.rateLimited[slot] = 0;
      this.durations[slot] = 0;
    }
    return slot;
  }
}
