import { randomUUID } from 'node:crypto';
import type { Cache } from './cache/types.js';
import type { Logger } from './logger.js';

/**
 * What a change notice says, per topic. A service that writes publishes; a cache that holds the
 * data listens. `id` absent means "reload everything of this kind".
 */
export interface ChangeTopics {
  channels: { id?: number };
  tokens: { id: number };
  users: { id: number };
  /** A balance moved outside the relay (admin adjustment, redemption, invite reward). */
  quota: { userId: number; delta: number };
  groups: Record<string, never>;
  prices: Record<string, never>;
  options: { key: string };
  modelMetadata: Record<string, never>;
  /**
   * A channel rests for a model after a 429 (or another cooling failure) until `until`, in Unix
   * milliseconds: an absolute end, so a notice that arrives late does not lengthen the rest.
   */
  cooldowns: { channelId: number; model: string; until: number };
  /**
   * A channel (`model` '') or a channel and model pair was opened until `until` (Unix ms), or
   * closed after its trials (relay/routing/health.ts); each process counts its own outcomes.
   */
  health: { channelId: number; model: string; state: 'open' | 'closed'; openedAt: number; until: number };
  /** A user's subscription began, was renewed or ended; no `userId`: a plan changed, every user's copy goes. */
  subscriptions: { userId?: number };
}

export type ChangeTopic = keyof ChangeTopics;

/**
 * Where a notice came from. `local`: this process made the change (listeners that clear shared
 * state, such as the Redis ledger, act only here, once). `remote`: another node made it.
 */
export type ChangeOrigin = 'local' | 'remote';

/** A listener may answer a promise: a local publish waits for it (the change is in effect when the write returns). */
export type ChangeListener<T extends ChangeTopic> = (
  change: ChangeTopics[T],
  origin: ChangeOrigin,
) => void | Promise<void>;

/**
 * Topics only this process needs: a quota change clears this node's cached balance, and the
 * shared (Redis) ledger is cleared by the same local listener, so no other node must act.
 */
const LOCAL_ONLY: ReadonlySet<ChangeTopic> = new Set(['quota']);

/**
 * The one invalidation bus: services publish, caches listen, on this node at once and on every
 * other node through the cache's pub/sub (Redis when configured, in-process otherwise). Built
 * once by the composition root and passed to whoever publishes or listens.
 */
export class ChangeBus {
  private readonly listeners = new Map<ChangeTopic, ChangeListener<ChangeTopic>[]>();
  /** Tags this node's notices, which it applied when it sent them. */
  private readonly node = randomUUID();
  private readonly subscriptions: Promise<void>[] = [];

  constructor(
    private readonly cache: Cache,
    private readonly logger?: Pick<Logger, 'error'>,
  ) {}

  /** Calls `listener` for every change of `topic`, from this node or another; answers how to stop. */
  on<T extends ChangeTopic>(topic: T, listener: ChangeListener<T>): () => void {
    let list = this.listeners.get(topic);
    if (!list) {
      list = [];
      this.listeners.set(topic, list);
      if (!LOCAL_ONLY.has(topic)) this.subscribeRemote(topic);
    }
    const entry = listener as ChangeListener<ChangeTopic>;
    list.push(entry);
    return () => {
      const current = this.listeners.get(topic);
      if (current)
        this.listeners.set(
          topic,
          current.filter((other) => other !== entry),
        );
    };
  }

  /**
   * Calls `listener` when notices from other nodes may have been lost (the connection carrying them
   * dropped and came back): node-local copies that a notice would have cleared must go.
   */
  onMissedNotices(listener: () => void): void {
    this.cache.onResubscribed?.(listener);
  }

  /** Resolves once every topic listened to so far hears other nodes' notices. */
  async ready(): Promise<void> {
    await Promise.all(this.subscriptions);
  }

  /** Applies `change` here at once, then announces it to the other nodes. */
  async publish<T extends ChangeTopic>(topic: T, change: ChangeTopics[T]): Promise<void> {
    const applied = this.deliver(topic, change, 'local');
    if (!LOCAL_ONLY.has(topic)) await this.announce(topic, change);
    await applied;
  }

  private async announce<T extends ChangeTopic>(topic: T, change: ChangeTopics[T]): Promise<void> {
    try {
      await this.cache.publish(channelOf(topic), JSON.stringify({ node: this.node, change }));
    } catch (error) {
      // The change is applied here and in the database; other nodes catch up when their copies expire.
      this.logger?.error({ err: error, topic }, 'announcing a change to the other nodes failed');
    }
  }

  private subscribeRemote(topic: ChangeTopic): void {
    const subscribed = this.cache
      .subscribe(channelOf(topic), (message) => {
        const notice = parseNotice(message);
        if (!notice || notice.node === this.node) return;
        void this.deliver(topic, notice.change as ChangeTopics[ChangeTopic], 'remote');
      })
      .catch((error: unknown) => this.logger?.error({ err: error, topic }, 'listening for changes failed'));
    this.subscriptions.push(subscribed);
  }

  /** Calls every listener at once (synchronously); the promise settles when the async ones have. */
  private deliver<T extends ChangeTopic>(topic: T, change: ChangeTopics[T], origin: ChangeOrigin): Promise<unknown> {
    const pending: Promise<void>[] = [];
    for (const listener of this.listeners.get(topic) ?? []) {
      try {
        const result = listener(change, origin);
        if (result) pending.push(result.catch((error: unknown) => this.failed(error, topic)));
      } catch (error) {
        this.failed(error, topic);
      }
    }
    return pending.length === 0 ? Promise.resolve() : Promise.all(pending);
  }

  private failed(error: unknown, topic: ChangeTopic): void {
    this.logger?.error({ err: error, topic }, 'applying a change failed');
  }
}

function channelOf(topic: ChangeTopic): string {
  return `changes.${topic}`;
}

function parseNotice(message: string): { node: string; change: unknown } | undefined {
  try {
    const value = JSON.parse(message) as unknown;
    if (typeof value === 'object' && value !== null && 'node' in value && 'change' in value) {
      return value as { node: string; change: unknown };
    }
  } catch {
    // Not ours: ignored.
  }
  return undefined;
}
