import type { PriceType } from '@one-hub/contracts';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';

export const PRICING_TABS = ['prices', 'check', 'owners', 'info'] as const;
export type PricingTab = (typeof PRICING_TABS)[number];

export const PRICE_PAGE_SIZES = [25, 50, 100] as const;
const DEFAULT_SIZE = 25;

/** The screen's state kept in the URL: the tab, and the price list's search, filters and page. */
export interface PricingParams {
  tab: PricingTab;
  search: string;
  /** A channel type / owner id, or null for all. */
  owner: number | null;
  type: PriceType | '';
  page: number;
  size: number;
}

function positive(text: string | null, fallback: number): number {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export function parsePricingParams(search: URLSearchParams): PricingParams {
  const tab = search.get('tab');
  const type = search.get('type');
  const owner = search.get('owner');
  const size = positive(search.get('size'), DEFAULT_SIZE);
  return {
    tab: (PRICING_TABS as readonly string[]).includes(tab ?? '') ? (tab as PricingTab) : 'prices',
    search: search.get('q') ?? '',
    owner: owner !== null && owner !== '' && Number.isInteger(Number(owner)) ? Number(owner) : null,
    type: type === 'tokens' || type === 'times' ? type : '',
    page: positive(search.get('page'), 1),
    size: (PRICE_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
  };
}

export function writePricingParams(params: PricingParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.tab !== 'prices') search.set('tab', params.tab);
  if (params.search) search.set('q', params.search);
  if (params.owner !== null) search.set('owner', String(params.owner));
  if (params.type) search.set('type', params.type);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.size !== DEFAULT_SIZE) search.set('size', String(params.size));
  return search;
}

export function usePricingParams() {
  return useUrlListParams(parsePricingParams, writePricingParams);
}
