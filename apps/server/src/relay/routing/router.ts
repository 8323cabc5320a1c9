import { CooldownStore } from './cooldowns.js';

/**
 * Channel selection over an in-memory index rebuilt whenever channels change. For a group and
 * model: exact model entries, else the longest matching wildcard (`gpt-4*`); highest priority tier
 * first; weighted random inside a tier; channels skipped, cooling down or filtered out are passed over.
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
}

export interface SelectionFilter {
  group: string;
  model: string;
  excluded: ReadonlySet<number>;
  hasTools: boolean;
  stream: boolean;
}

type Tiers = RouterChannel[][];

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
  return [...byPriority.entries()].sort(([left], [right]) => right - left).map(([, tier]) => tier);
}

export class ChannelRouter {
  private groups = new Map<string, GroupIndex>();
  private byId = new Map<number, RouterChannel>();
  /** Pairs resting after a failure; shared with other processes through its `onStart` hook (shared-cooldowns.ts). */
  readonly cooldowns = new CooldownStore();

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
    for (const tier of tiers ?? []) {
      // The common case, one channel in the tier, takes no array.
      if (tier.length === 1) {
        if (tier[0] && this.eligible(tier[0], filter)) return tier[0];
        continue;
      }
      const chosen = this.weightedPick(tier.filter((channel) => this.eligible(channel, filter)));
      if (chosen) return chosen;
    }
    return undefined;
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
      if (channel && this.eligible(channel, filter)) return channel;
      if (tier.some((candidate) => this.eligible(candidate, filter))) return undefined;
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

  private eligible(channel: RouterChannel, filter: SelectionFilter): boolean {
    if (filter.excluded.has(channel.id)) return false;
    if (filter.hasTools && channel.only_chat) return false;
    if (filter.stream && channel.disabled_stream.includes(filter.model)) return false;
    return !this.cooldowns.cooling(channel.id, filter.model);
  }

  private weightedPick(channels: RouterChannel[]): RouterChannel | undefined {
    if (channels.length <= 1) return channels[0];
    const total = channels.reduce((sum, channel) => sum + Math.max(1, channel.weight), 0);
    let point = this.random() * total;
    for (const channel of channels) {
      point -= Math.max(1, channel.weight);
      if (point < 0) return channel;
    }
    return channels[channels.length - 1];
  }
}
