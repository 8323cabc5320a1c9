import type { UnpricedModelView } from '@one-hub/contracts';
import { isFallbackPrice } from '../../domain/prices.js';
import type { PriceTable } from './table.js';

/**
 * An enabled channel as prices need to see it. `billedModel` is the relay's own mapping (the
 * composition root hands it in), so prices neither import the channels nor copy the relay's rule.
 */
export interface ServedChannel {
  id: number;
  name: string;
  /** The models as listed on the channel, wildcards (`acme-*`) included. */
  models: readonly string[];
  /** The name a request for `requested` is billed under, after the channel's model mapping. */
  billedModel(requested: string): string;
}

/** The enabled channels, read afresh on each call so the answer follows channel edits. */
export type ServedChannelSource = () => Promise<readonly ServedChannel[]>;

/**
 * A wildcard (`gpt-4*` as a price, `acme-*` on a channel) names a family of models; it is not
 * itself a model anyone can call or be billed for.
 */
export function isExactModel(model: string): boolean {
  return model !== '' && !model.includes('*');
}

/**
 * Every model the channels bill that `table` prices only at the fallback, sorted by name, with
 * the channels that bill it sorted by id.
 */
export function unpricedModels(table: PriceTable, channels: readonly ServedChannel[]): UnpricedModelView[] {
  const servedBy = new Map<string, Map<number, string>>();
  for (const channel of channels) {
    for (const requested of channel.models) {
      if (!isExactModel(requested)) continue;
      const billed = channel.billedModel(requested);
      if (!isFallbackPrice(table.lookup(billed))) continue;
      const serving = servedBy.get(billed) ?? new Map<number, string>();
      serving.set(channel.id, channel.name);
      servedBy.set(billed, serving);
    }
  }
  return [...servedBy.keys()].sort().map((model) => ({
    model,
    channels: [...(servedBy.get(model) ?? [])]
      .sort(([left], [right]) => left - right)
      .map(([id, name]) => ({ id, name })),
  }));
}
