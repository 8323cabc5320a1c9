import type { PriceView, UserGroupView } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import type { ChannelService } from '../channel/service.js';
import type { UserGroupService } from '../user-group/service.js';
import { listedPrice } from './model-info.js';
import type { PriceService } from './service.js';

/** One entry of `GET /api/available_model`: who may call the model, who makes it, what it costs. */
export interface AvailableModelView {
  /** Symbols of the caller's usable groups with an enabled channel offering the model. */
  groups: string[];
  owned_by: string;
  price: PriceView;
}

/** What the listing needs of an enabled channel: no key, nothing secret. */
export interface OfferingChannel {
  type: number;
  models: readonly string[];
  groups: readonly string[];
}

export interface AvailableModelSources {
  /** Every enabled user group that is public or the caller's own. */
  usableGroups(callerGroup: string | undefined): Promise<UserGroupView[]>;
  enabledChannels(): Promise<OfferingChannel[]>;
}

/** The listing's sources: the group rules of UserGroupService, the channels of ChannelService. */
export function serviceSources(
  channels: Pick<ChannelService, 'listOfferings'>,
  groups: Pick<UserGroupService, 'visibleTo'>,
): AvailableModelSources {
  return {
    usableGroups: async (callerGroup) => Object.values(await groups.visibleTo(callerGroup)),
    enabledChannels: () => channels.listOfferings(),
  };
}

/**
 * The concrete models a channel entry stands for. A wildcard (`gpt-4*`) is not a model anyone can
 * call by that name, so it stands for the exactly priced models it matches.
 */
function expand(entry: string, pricedModels: readonly string[]): string[] {
  if (!entry.endsWith('*')) return [entry];
  const prefix = entry.slice(0, -1);
  return pricedModels.filter((model) => model.startsWith(prefix));
}

/**
 * Every model the caller may use, mapped to the groups offering it, its owner and its price. A
 * model is available when an enabled channel lists it in a group the caller may use.
 */
export async function availableModels(
  prices: Pick<PriceService, 'list' | 'lookup' | 'ownedBy' | 'modelInfos'>,
  sources: AvailableModelSources,
  callerGroup: string | undefined,
): Promise<Record<string, AvailableModelView>> {
  const [priceList, owners, infos, groups, channels] = await Promise.all([
    prices.list('db'),
    prices.ownedBy(),
    prices.modelInfos(),
    sources.usableGroups(callerGroup),
    sources.enabledChannels(),
  ]);
  const groupOrder = new Map(groups.map((group, index) => [group.symbol, index]));
  const pricedModels = priceList.map((price) => price.model).filter((model) => !model.includes('*'));

  const offered = new Map<string, { groups: Set<string>; channelType: number }>();
  for (const channel of channels) {
    const usable = channel.groups.filter((symbol) => groupOrder.has(symbol));
    if (usable.length === 0) continue;
    for (const model of channel.models.flatMap((entry) => expand(entry, pricedModels))) {
      const entry = offered.get(model) ?? { groups: new Set<string>(), channelType: channel.type };
      for (const symbol of usable) entry.groups.add(symbol);
      offered.set(model, entry);
    }
  }

  const result: Record<string, AvailableModelView> = {};
  for (const model of [...offered.keys()].sort()) {
    const entry = offered.get(model);
    if (!entry) continue;
    const price = prices.lookup(model);
    const groupsInOrder = [...entry.groups].sort(
      (left, right) => (groupOrder.get(left) ?? 0) - (groupOrder.get(right) ?? 0),
    );
    result[model] = {
      groups: groupsInOrder,
      // The price's maker when the model is priced, else the maker of the first channel offering it.
      owned_by: owners[String(price.channel_type)]?.name ?? owners[String(entry.channelType)]?.name ?? 'Unknown',
      // The listed model's information, also when a wildcard or the fallback prices it.
      price: listedPrice(price, infos, model),
    };
  }
  return result;
}

/** `GET /api/available_model`: public; a signed-in caller also sees the models of their own group. */
export function availableModelRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; prices: PriceService; sources: AvailableModelSources },
): void {
  const { auth, prices, sources } = deps;
  app.get('/api/available_model', { preHandler: auth.optionalUser }, async (request, reply) => {
    // Readable from other sites' pages, like the price list.
    reply.header('access-control-allow-origin', '*');
    return ok(await availableModels(prices, sources, request.user?.group));
  });
}
