import {
  type OwnedByView,
  type PriceType,
  type PriceView,
  type ProviderView,
  priceToUsd,
  RESERVED_OWNER_ID_MAX,
} from '@one-hub/contracts';

import { formatUsd } from '../../lib/format.js';
/** Who a price's `channel_type` stands for: a channel type, a built-in owner or an administrator's own. */
export interface OwnerOption {
  id: number;
  name: string;
  icon: string;
  /** Added by an administrator (id above 1000), so it can be edited and deleted. */
  custom: boolean;
}

/**
 * Every owner a price may name, by id: the owners of `/api/ownedby` (built-in makers and the
 * administrators' own, named as the model-price screen names them), then the channel types of
 * `/api/providers` that no owner covers.
 */
export function ownerOptions(
  providers: readonly ProviderView[] | undefined,
  ownedBy: Readonly<Record<string, OwnedByView>> | undefined,
): OwnerOption[] {
  const byId = new Map<number, OwnerOption>();
  for (const provider of providers ?? []) {
    byId.set(provider.type, { id: provider.type, name: provider.name, icon: '', custom: false });
  }
  for (const owner of Object.values(ownedBy ?? {})) {
    byId.set(owner.id, { id: owner.id, name: owner.name, icon: owner.icon, custom: owner.id > RESERVED_OWNER_ID_MAX });
  }
  return [...byId.values()].sort((left, right) => left.id - right.id);
}

/** What one model costs, in US dollars: per 1K and per 1M tokens, or per call for `times` prices. */
export type UsdPrice =
  | {
      type: 'tokens';
      input: { perThousand: number; perMillion: number };
      output: { perThousand: number; perMillion: number };
    }
  | { type: 'times'; perCall: number };

/** Multiplier 1 = $0.002 per 1K tokens; a `times` price costs 1000 × input quota = input × $0.002 a call. */
export function usdPrice(price: Pick<PriceView, 'type' | 'input' | 'output'>): UsdPrice {
  const input = Math.max(price.input, 0);
  if (price.type === 'times') return { type: 'times', perCall: priceToUsd(input).perThousand };
  return { type: 'tokens', input: priceToUsd(input), output: priceToUsd(Math.max(price.output, 0)) };
}

/** A price in dollars as the price table writes it: out to 8 decimals, so the smallest prices still show. */
export function formatPriceUsd(value: number): string {
  return formatUsd(value, 8);
}

/** A multiplier as typed: up to 6 decimals, no trailing zeros. */
export function formatRatio(value: number): string {
  return String(Number(value.toFixed(6)));
}

export interface PriceFilter {
  search: string;
  /** null for every owner. */
  owner: number | null;
  /** '' for both types. */
  type: PriceType | '';
}

/** Prices matching the search (model name, any case), the owner and the type, in model order. */
export function filterPrices(prices: readonly PriceView[], filter: PriceFilter): PriceView[] {
  const needle = filter.search.trim().toLowerCase();
  return prices
    .filter(
      (price) =>
        (filter.owner === null || price.channel_type === filter.owner) &&
        (!filter.type || price.type === filter.type) &&
        (!needle || price.model.toLowerCase().includes(needle)),
    )
    .sort((left, right) => left.model.localeCompare(right.model));
}

/** How many prices name each owner id. */
export function pricesPerOwner(prices: readonly PriceView[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const price of prices) counts.set(price.channel_type, (counts.get(price.channel_type) ?? 0) + 1);
  return counts;
}
