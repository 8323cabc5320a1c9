import type { BalancingStrategy } from '@one-hub/contracts';
import type { ChannelHealth } from './health.js';

export type { BalancingStrategy } from '@one-hub/contracts';

/**
 * How one channel is chosen among the usable channels of a priority tier (issue 34): `weighted`
 * random by weight (degraded channels weigh less); `latency`, the lowest median time to first
 * byte (streams) or duration (otherwise) of recent successes, a channel with none measured yet
 * first so it gets measured; `least_in_flight`, the fewest requests in flight on this process.
 * Ties go by weighted chance, so equal channels still share the traffic.
 */

interface StrategyChannel {
  id: number;
  weight: number;
}

/** What a strategy reads of the router. */
export interface StrategyRouter {
  readonly health: Pick<ChannelHealth, 'latency'>;
  readonly inFlight: InFlightCounts;
  weightOf(channel: StrategyChannel, model: string): number;
  chance(): number;
}

export function pickByStrategy<Channel extends StrategyChannel>(
  router: StrategyRouter,
  channels: Channel[],
  filter: { model: string; stream: boolean; strategy?: BalancingStrategy },
): Channel | undefined {
  if (channels.length <= 1) return channels[0];
  if (filter.strategy === 'latency') {
    return weightedPick(
      router,
      lowest(channels, (channel) => router.health.latency(channel.id, filter.stream) ?? -1),
      filter.model,
    );
  }
  if (filter.strategy === 'least_in_flight') {
    return weightedPick(
      router,
      lowest(channels, (channel) => router.inFlight.of(channel.id)),
      filter.model,
    );
  }
  return weightedPick(router, channels, filter.model);
}

/** The channels sharing the lowest score. */
function lowest<Channel>(channels: Channel[], score: (channel: Channel) => number): Channel[] {
  let best = Number.POSITIVE_INFINITY;
  let chosen: Channel[] = [];
  for (const channel of channels) {
    const value = score(channel);
    if (value < best) {
      best = value;
      chosen = [channel];
    } else if (value === best) chosen.push(channel);
  }
  return chosen;
}

function weightedPick<Channel extends StrategyChannel>(
  router: StrategyRouter,
  channels: Channel[],
  model: string,
): Channel | undefined {
  if (channels.length <= 1) return channels[0];
  let total = 0;
  for (const channel of channels) total += router.weightOf(channel, model);
  let point = router.chance() * total;
  for (const channel of channels) {
    point -= router.weightOf(channel, model);
    if (point < 0) return channel;
  }
  return channels[channels.length - 1];
}

/** Requests each channel serves on this process now; entries go when they reach zero. */
export class InFlightCounts {
  private readonly counts = new Map<number, number>();

  enter(channelId: number): void {
    this.counts.set(channelId, (this.counts.get(channelId) ?? 0) + 1);
  }

  leave(channelId: number): void {
    const count = (this.counts.get(channelId) ?? 0) - 1;
    if (count > 0) this.counts.set(channelId, count);
    else this.counts.delete(channelId);
  }

  of(channelId: number): number {
    return this.counts.get(channelId) ?? 0;
  }
}
