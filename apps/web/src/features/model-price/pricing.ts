import { type PriceType, type PriceView, priceToUsd } from '@one-hub/contracts';

/** One entry of `GET /api/available_model`. */
export interface AvailableModel {
  groups: string[];
  owned_by: string;
  price: PriceView;
}

export type AvailableModels = Record<string, AvailableModel>;

export interface TokenPrice {
  perThousand: number;
  perMillion: number;
}

/** What one model costs a member of a group, in US dollars. */
export type DisplayPrice =
  | { type: 'tokens'; input: TokenPrice; output: TokenPrice }
  | { type: 'times'; perCall: number };

export interface ModelRow {
  model: string;
  owner: string;
  groups: string[];
  type: PriceType;
  price: PriceView;
}

/**
 * A price in dollars for a group: a ratio of 1 is $0.002 per 1K tokens, scaled by the group's
 * ratio. A `times` price costs 1000 × input quota per call, which is input × $0.002.
 */
export function displayPrice(price: PriceView, groupRatio: number): DisplayPrice {
  const ratio = Number.isFinite(groupRatio) && groupRatio >= 0 ? groupRatio : 1;
  const input = Math.max(price.input, 0) * ratio;
  if (price.type === 'times') return { type: 'times', perCall: priceToUsd(input).perThousand };
  return {
    type: 'tokens',
    input: priceToUsd(input),
    output: priceToUsd(Math.max(price.output, 0) * ratio),
  };
}

/** The models in name order, flattened for tables and cards. */
export function toRows(models: AvailableModels | undefined): ModelRow[] {
  if (!models) return [];
  return Object.entries(models)
    .map(([model, entry]) => ({
      model,
      owner: entry.owned_by || '',
      groups: entry.groups ?? [],
      type: entry.price?.type === 'times' ? ('times' as const) : ('tokens' as const),
      price: entry.price,
    }))
    .sort((left, right) => left.model.localeCompare(right.model));
}

export interface RowFilter {
  search: string;
  /** '' for every owner. */
  owner: string;
  /** '' for every group. */
  group: string;
}

/** Rows matching the search (model or owner, any case), the owner and the group. */
export function filterRows(rows: readonly ModelRow[], filter: RowFilter): ModelRow[] {
  const needle = filter.search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (!filter.owner || row.owner === filter.owner) &&
      (!filter.group || row.groups.includes(filter.group)) &&
      (!needle || row.model.toLowerCase().includes(needle) || row.owner.toLowerCase().includes(needle)),
  );
}

/** Owners with how many rows each has, most models first, then by name. */
export function ownerCounts(rows: readonly ModelRow[]): Array<{ owner: string; count: number }> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.owner, (counts.get(row.owner) ?? 0) + 1);
  return [...counts.entries()]
    .map(([owner, count]) => ({ owner, count }))
    .sort((left, right) => right.count - left.count || left.owner.localeCompare(right.owner));
}
