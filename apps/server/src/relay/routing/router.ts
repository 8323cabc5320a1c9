import type { ChannelRoutingStrategy, RouteSkipReason } from '@one-hub/contracts';
import { CooldownStore } from './cooldowns.js';
import { ChannelHealth } from './health.js';
import { type BalancingStrategy, InFlightCounts, pickByStrategy } from './strategies.js';

/**
 * Channel selection over an in-memory index rebuilt whenever channels change. For a group and
 * model: exact model entries, else the longest matching wildcard (`gpt-4*`); highest priority tier
 * first; inside a tier, the strategy all its channels name (set per tag), else the group's
 * (weighted random by default: strategies.ts); channels
 * excluded, cooling down, open (health.ts) or filtered out are passed over. A half-open channel is
 * let through for a share of requests as a trial; a degraded one weighs less. When health alone
 * left nothing, the least recently opened of the channels it passed over is tried anyway: a
 * gateway whose every channel failed a while ago answers by trying one rather than refusing.
 */
export interface RouterChannel {
  id: number;
  type: number;
  name: string;
  key: string;
  base_url: string;
  other: string;
  proxy: string;
  models: string[];
  group: string[];
  priority: number;
  weight: number;
  model_mapping: Record<string, string>;
  model_headers: Record<string, string>;
  custom_parameter: Record<string, unknown>;
  /** The channel's plugin settings (a JSON object), read by the adapters of the types that take some. */
  plugin: Record<string, unknown>;
  only_chat: boolean;
  disabled_stream: string[];
  /** How the prompt is pre-counted for the reservation: 1 all, 2 without images, 3 not at all (absent: 1). */
  pre_cost?: number;
  /** Responses requests to this channel are translated to chat even where it serves Responses itself. */
  compatible_response?: boolean;
  /** The channel's strategy inside its tier; '' or absent follows the group's. */
  routing_strategy?: ChannelRoutingStrategy;
}

export interface SelectionFilter {
  group: string;
  model: string;
  excluded: ReadonlySet<number>;
  hasTools: boolean;
  stream: boolean;
  /** How a channel is chosen inside a priority tier; weighted random without it. */
  strategy?: BalancingStrategy;
  /** Told of each channel passed over and why (the log's route explanation). */
  skipped?: (channelId: number, reason: RouteSkipReason) => void;
  /** Told when a tier's own strategy replaced the group's (the log's route explanation). */
  tierStrategy?: (strategy: BalancingStrategy) => void;
}

/** The channels of one priority tier, with the strategy every one of them names, if they agree on one. */
type Tier = RouterChannel[] & { strategy?: BalancingStrategy };
type Tiers = Tier[];

/** The strategy all the tier's channels name; none when one follows the group or they differ. */
function commonStrategy(tier: RouterChannel[]): BalancingStrategy | undefined {
  const first = tier[0]?.routing_strategy;
  if (!first) return undefined;
  return tier.every((channel) => channel.routing_strategy === first) ? first : undefined;
}

interface GroupIndex {
  exact: Map<string, Tiers>;
  /** Wildcard prefixes, longest first, so the most specific rule wins. */
  wildcards: Array<{ prefix: string; tiers: Tiers }>;
}

function toTiers(channels: RouterChannel[]): Tiers {
  const byPriority = new Map<number, RouterChannel[]>();
  for (const channel of channels) {
    const tier = byPriority.get(channel.priority) ?? [];
    tier.push(channel);
    byPriority.set(channel.priority, tier);
  }
  return [...byPriority.entries()]
    .sort(([left], [right]) => right - left)
    .map(([, channels]) => {
      const tier: Tier = channels;
      const strategy = commonStrategy(channels);
      if (strategy) tier.strategy = strategy;
      return tier;
    });
}

export class ChannelRouter {
  private groups = new Map<string, GroupIndex>();
  private byId = new Map<number, RouterChannel>();
  /** Pairs resting after a failure; shared with other processes through its `onStart` hook (shared-cooldowns.ts). */
  readonly cooldowns = new CooldownStore();
  /** Each channel's recent outcomes and state; shared with other processes by shared-health.ts. */
  readonly health = new ChannelHealth();
  /** Requests each channel is serving on this process (the least_in_flight strategy). */
  readonly inFlight = new InFlightCounts();

  constructor(private readonly random: () => number = Math.random) {}

  replaceChannels(channels: RouterChannel[]): void {
    const collected = new Map<string, Map<string, RouterChannel[]>>();
    for (const channel of channels) {
      for (const group of channel.group) {
        const models = collected.get(group) ?? new Map<string, RouterChannel[]>();
        for (const model of channel.models) models.set(model, [...(models.get(model) ?? []), channel]);
        collected.set(group, models);
      }
    }
    const groups = new Map<string, GroupIndex>();
    for (const [group, models] of collected) {
      const index: GroupIndex = { exact: new Map(), wildcards: [] };
      for (const [model, list] of models) {
        if (model.endsWith('*')) index.wildcards.push({ prefix: model.slice(0, -1), tiers: toTiers(list) });
        else index.exact.set(model, toTiers(list));
      }
      index.wildcards.sort((left, right) => right.prefix.length - left.prefix.length);
      groups.set(group, index);
    }
    this.groups = groups;
    this.byId = new Map(channels.map((channel) => [channel.id, channel]));
    this.health.retain(new Set(this.byId.keys()));
  }

  /** The ids of the channels routed to (enabled ones), in ascending order. */
  channelIds(): number[] {
    return [...this.byId.keys()].sort((left, right) => left - right);
  }

  byChannelId(id: number): RouterChannel | undefined {
    return this.byId.get(id);
  }

  /** Models a group can use: exact names only (wildcards are not a model list). */
  modelsOf(group: string): string[] {
    return [...(this.groups.get(group)?.exact.keys() ?? [])].sort();
  }

  /**
   * Each model the group lists by name with the channels serving it, and whether it also serves
   * models by a wildcard (which no list can enumerate); undefined for a group with no channel.
   */
  offersOf(group: string): { models: Array<[string, RouterChannel[]]>; wildcards: boolean } | undefined {
    const index = this.groups.get(group);
    if (!index) return undefined;
    const models = [...index.exact].map(([model, tiers]): [string, RouterChannel[]] => [model, tiers.flat()]);
    return { models, wildcards: index.wildcards.length > 0 };
  }

  hasGroup(group: string): boolean {
    return this.groups.has(group);
  }

  /** Whether any enabled channel of the group lists the model, exactly or by a wildcard, resting or not. */
  serves(group: string, model: string): boolean {
    const index = this.groups.get(group);
    if (!index) return false;
    return index.exact.has(model) || index.wildcards.some((wildcard) => model.startsWith(wildcard.prefix));
  }

  select(filter: SelectionFilter): RouterChannel | undefined {
    const index = this.groups.get(filter.group);
    if (!index) return undefined;
    const tiers =
      index.exact.get(filter.model) ?? index.wildcards.find((entry) => filter.model.startsWith(entry.prefix))?.tiers;
    let unhealthy: RouterChannel[] | undefined;
    for (const tier of tiers ?? []) {
      // The common case, one channel in the tier, takes no array.
      if (tier.length === 1 && tier[0]) {
        const reason = this.skipReason(tier[0], filter);
        if (!reason) return tier[0];
        unhealthy = this.passOver(tier[0], reason, filter, unhealthy);
        continue;
      }
      const usable: RouterChannel[] = [];
      for (const channel of tier) {
        const reason = this.skipReason(channel, filter);
        if (!reason) usable.push(channel);
        else unhealthy = this.passOver(channel, reason, filter, unhealthy);
      }
      const strategy = tier.strategy ?? filter.strategy;
      const chosen = pickByStrategy(this, usable, strategy === filter.strategy ? filter : { ...filter, strategy });
      if (chosen) {
        if (strategy !== filter.strategy && strategy) filter.tierStrategy?.(strategy);
        return chosen;
      }
    }
    return unhealthy ? this.leastRecentlyOpened(unhealthy, filter.model) : undefined;
  }

  /** What a channel weighs in a weighted pick: its weight (at least 1), scaled down while degraded. */
  weightOf(channel: RouterChannel, model: string): number {
    const weight = Math.max(1, channel.weight);
    if (this.health.status(channel.id, model) !== 'degraded') return weight;
    return weight * this.health.settings().degradedWeight;
  }

  /** A number in [0, 1) from the router's source of chance (tests fix it). */
  chance(): number {
    return this.random();
  }

  /**
   * Cache affinity (affinity.ts): the pinned channel when it may take the request, unless a higher
   * priority tier has a channel that may; undefined sends the request to `select` and re-pins it.
   */
  pinned(channelId: number, filter: SelectionFilter): RouterChannel | undefined {
    const index = this.groups.get(filter.group);
    const tiers =
      index?.exact.get(filter.model) ?? index?.wildcards.find((entry) => filter.model.startsWith(entry.prefix))?.tiers;
    for (const tier of tiers ?? []) {
      const channel = tier.find((candidate) => candidate.id === channelId);
      if (channel && !this.skipReason(channel, filter)) return channel;
      if (tier.some((candidate) => !this.skipReason(candidate, filter))) return undefined;
    }
    return undefined;
  }

  /** After a 429 the channel is not used for this model until the cooldown ends. */
  coolDown(channelId: number, model: string, seconds: number): void {
    this.cooldowns.start(channelId, model, seconds);
  }

  /** Channel and model pairs resting now or not yet swept, for tests. */
  get cooldownCount(): number {
    return this.cooldowns.size;
  }

  private skipReason(channel: RouterChannel, filter: SelectionFilter): RouteSkipReason | undefined {
    if (filter.excluded.has(channel.id)) return 'excluded';
    if (filter.hasTools && channel.only_chat) return 'tools';
    if (filter.stream && channel.disabled_stream.includes(filter.model)) return 'stream';
    if (this.cooldowns.cooling(channel.id, filter.model)) return 'cooling';
    const status = this.health.status(channel.id, filter.model);
    if (status === 'open') return 'open';
    // A half-open channel takes its trial share of the requests that meet it.
    if (status === 'half_open' && this.random() * 100 >= this.health.settings().trialPercent) return 'half_open';
    return undefined;
  }

  /** Tells the filter's listener; collects the channels health alone passed over, for the last resort. */
  private passOver(
    channel: RouterChannel,
    reason: RouteSkipReason,
    filter: SelectionFilter,
    unhealthy: RouterChannel[] | undefined,
  ): RouterChannel[] | undefined {
    filter.skipped?.(channel.id, reason);
    if (reason !== 'open' && reason !== 'half_open') return unhealthy;
    const list = unhealthy ?? [];
    list.push(channel);
    return list;
  }

  private leastRecentlyOpened(channels: RouterChannel[], model: string): RouterChannel | undefined {
    let chosen: RouterChannel | undefined;
    let earliest = Number.POSITIVE_INFINITY;
    for (const channel of channels) {
      const openedAt = this.health.openedAt(channel.id, model);
      if (openedAt < earliest) {
        earliest = openedAt;
        chosen = channel;
      }
    }
    return chosen;
  }
}
