/**
 * Shared key-value store and invalidation bus. In one process it is memory; with several nodes it
 * is Redis, so a write on one node invalidates the caches of all of them.
 */
export interface Cache {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Deletes the key only while it holds `value`, atomically; true for the one caller that deleted it. */
  deleteIfEquals(key: string, value: string): Promise<boolean>;
  /** Sets the key only if it is absent (a lease when given a time-to-live); true for the one caller that set it. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Atomically adds to a counter, starting its time-to-live on first use; returns the new value. */
  increment(key: string, ttlSeconds: number): Promise<number>;
  /** Tells every node (this one included) that `topic` changed. */
  publish(topic: string, message?: string): Promise<void>;
  /** Resolves once the subscription is live, so a publish after it is seen. */
  subscribe(topic: string, handler: (message: string) => void): Promise<void>;
  /**
   * Called when the subscriptions are live again after the connection carrying them dropped:
   * notices published meanwhile were lost, so copies they would have cleared must go now. Never
   * called for a cache with no other process (memory).
   */
  onResubscribed?(listener: () => void): void;
  close(): Promise<void>;
}
