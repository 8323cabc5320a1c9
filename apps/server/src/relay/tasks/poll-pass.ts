import type { Logger } from '../../platform/logger.js';
import type { RouterChannel } from '../routing/router.js';
import { ChannelBackoff } from './backoff.js';
import type { TaskPlatformPoller } from './types.js';

/**
 * The one poll pass every task vendor runs: its unfinished tasks are read (oldest first, at most
 * `passLimit`); those past the task timeout are failed and refunded; the rest are asked of their
 * channels in batches of `batchSize` and updated. A channel that fails is backed off (backoff.ts);
 * its tasks wait, and time out if it never comes back. A disabled or deleted channel cannot be
 * asked: its tasks run into the timeout. The database is the only state, so a restarted node
 * carries on where the last pass stopped.
 */
export interface PolledVendor<Row> {
  /** suno, kling, midjourney: the poller's name, in the log. */
  name: string;
  passLimit: number;
  /** Tasks asked of a channel in one call (1 for an API that has no batch query). */
  batchSize: number;
  unfinished(limit: number): Promise<Row[]>;
  channelOf(row: Row): number;
  expired(row: Row, now: number): boolean;
  /** Fails and refunds a task past the timeout. */
  expire(row: Row, now: number): Promise<unknown>;
  /** Asks the channel about a batch of its tasks and records what it reports; answers how many ended. */
  pollBatch(channel: RouterChannel, rows: Row[]): Promise<number>;
}

export interface PollDeps {
  router: { byChannelId(id: number): RouterChannel | undefined };
  logger: Pick<Logger, 'warn'>;
}

export function taskPoller<Row>(
  deps: PollDeps,
  vendor: PolledVendor<Row>,
  backoff = new ChannelBackoff(),
): TaskPlatformPoller {
  return {
    name: vendor.name,
    async poll() {
      const rows = await vendor.unfinished(vendor.passLimit);
      const now = Date.now();
      const byChannel = new Map<number, Row[]>();
      let unfinished = 0;
      for (const row of rows) {
        if (vendor.expired(row, now)) {
          await vendor.expire(row, now);
          continue;
        }
        unfinished++;
        const channelId = vendor.channelOf(row);
        const list = byChannel.get(channelId) ?? [];
        list.push(row);
        byChannel.set(channelId, list);
      }
      for (const [channelId, tasks] of byChannel) {
        if (!backoff.ready(channelId)) continue;
        try {
          unfinished -= await pollChannel(deps, vendor, channelId, tasks);
          backoff.succeeded(channelId);
        } catch (error) {
          backoff.failed(channelId);
          deps.logger.warn(
            { channel: channelId, platform: vendor.name, detail: String(error) },
            'polling tasks failed',
          );
        }
      }
      return unfinished;
    },
  };
}

async function pollChannel<Row>(
  deps: PollDeps,
  vendor: PolledVendor<Row>,
  channelId: number,
  tasks: Row[],
): Promise<number> {
  const channel = deps.router.byChannelId(channelId);
  if (!channel) return 0;
  let ended = 0;
  for (let start = 0; start < tasks.length; start += vendor.batchSize) {
    ended += await vendor.pollBatch(channel, tasks.slice(start, start + vendor.batchSize));
  }
  return ended;
}
