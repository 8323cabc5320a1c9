import { MIDJOURNEY_SORT_FIELDS } from '@one-hub/contracts';
import { listSearch, parsePaging, wholeNumber } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { MidjourneyFilters, MidjourneyListParams } from './midjourney.api.js';

export const emptyMidjourneyFilters: MidjourneyFilters = {
  channel_id: '',
  mj_id: '',
  start_timestamp: 0,
  end_timestamp: 0,
};

/** Reads the list state from the query string, dropping values the server would refuse. */
export function parseMidjourneyListParams(search: URLSearchParams): MidjourneyListParams {
  const channelId = wholeNumber(search.get('channel_id'), 1);
  return {
    channel_id: channelId === null ? '' : String(channelId),
    mj_id: search.get('mj_id')?.trim().slice(0, 191) ?? '',
    start_timestamp: wholeNumber(search.get('start_timestamp'), 0) ?? 0,
    end_timestamp: wholeNumber(search.get('end_timestamp'), 0) ?? 0,
    ...parsePaging(search, MIDJOURNEY_SORT_FIELDS),
  };
}

/** The Midjourney list state kept in the URL; changing anything but the page goes back to page 1. */
export function useMidjourneyListParams(): [MidjourneyListParams, (changes: Partial<MidjourneyListParams>) => void] {
  return useUrlListParams(parseMidjourneyListParams, listSearch);
}
