import { ChannelTagFolding } from '@one-hub/contracts';
import { parsePaging, writePaging } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';

/** Columns the server lets the list be ordered by (reference §1.8). */
export const CHANNEL_SORT_FIELDS = [
  'id',
  'name',
  'group',
  'type',
  'status',
  'response_time',
  'balance',
  'priority',
  'weight',
] as const;
export type ChannelSortField = (typeof CHANNEL_SORT_FIELDS)[number];

/** Text filters of reference §1.8, except `key`, which never goes into the URL (it is a secret). */
export const CHANNEL_TEXT_FILTERS = ['name', 'group', 'models', 'other', 'test_model', 'tag'] as const;
export type ChannelTextFilter = (typeof CHANNEL_TEXT_FILTERS)[number];

export interface ChannelFilters extends Record<ChannelTextFilter, string> {
  /** 0 for any. */
  type: number;
  /** 0 for any. */
  status: number;
}

/** What the channel list asks for; everything lives in the URL (see useChannelListParams). */
export interface ChannelListParams extends ChannelFilters {
  /** How tags are folded: 3 every channel (the default here), 0 one row per tag, 1 untagged, 2 tags only. */
  filter_tag: ChannelTagFolding;
  order: string;
  page: number;
  size: number;
}

export const emptyChannelFilters: ChannelFilters = {
  name: '',
  group: '',
  models: '',
  other: '',
  test_model: '',
  tag: '',
  type: 0,
  status: 0,
};

const FOLDINGS: readonly number[] = Object.values(ChannelTagFolding);

function nonNegativeInteger(text: string | null): number {
  const value = Number(text);
  return Number.isInteger(value) && value >= 0 ? value : 0;
}

/** True when the tag folding shows one row per tag (the "tag view"). */
export function isTagView(folding: number): boolean {
  return folding !== ChannelTagFolding.unfolded;
}

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseChannelListParams(search: URLSearchParams): ChannelListParams {
  const folding = Number(search.get('filter_tag') ?? ChannelTagFolding.unfolded);
  const text = Object.fromEntries(
    CHANNEL_TEXT_FILTERS.map((field) => [field, (search.get(field) ?? '').trim()]),
  ) as Record<ChannelTextFilter, string>;
  return {
    ...text,
    type: nonNegativeInteger(search.get('type')),
    status: [1, 2, 3].includes(Number(search.get('status'))) ? Number(search.get('status')) : 0,
    filter_tag: (FOLDINGS.includes(folding) ? folding : ChannelTagFolding.unfolded) as ChannelTagFolding,
    ...parsePaging(search, CHANNEL_SORT_FIELDS),
  };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function channelListSearch(params: ChannelListParams): URLSearchParams {
  const search = new URLSearchParams();
  for (const field of CHANNEL_TEXT_FILTERS) if (params[field]) search.set(field, params[field]);
  if (params.type) search.set('type', String(params.type));
  if (params.status) search.set('status', String(params.status));
  if (params.filter_tag !== ChannelTagFolding.unfolded) search.set('filter_tag', String(params.filter_tag));
  return writePaging(search, params);
}

/** How many filters (besides the name search) are set, for the filter button's badge. */
export function activeChannelFilterCount(filters: ChannelFilters, key: string): number {
  const text = CHANNEL_TEXT_FILTERS.filter((field) => field !== 'name' && filters[field] !== '').length;
  return text + (filters.type ? 1 : 0) + (filters.status ? 1 : 0) + (key ? 1 : 0);
}

/** The channel list state kept in the URL; any change that does not name a page goes back to page 1. */
export function useChannelListParams(): [ChannelListParams, (changes: Partial<ChannelListParams>) => void] {
  return useUrlListParams(parseChannelListParams, channelListSearch);
}
