import { fromDateInput, toDateInput } from '../../lib/listState.js';
import type { MidjourneyFilters } from './midjourney.api.js';

/** The filter inputs' text. Task times are milliseconds; the inputs hold whole seconds. */
export function midjourneyDraft(filters: MidjourneyFilters): Record<string, string> {
  return {
    channel_id: filters.channel_id,
    mj_id: filters.mj_id,
    start: toDateInput(Math.floor(filters.start_timestamp / 1000)),
    end: toDateInput(Math.floor(filters.end_timestamp / 1000)),
  };
}

/** The filters of the inputs' text; the end bound takes in the whole of its last second. */
export function midjourneyFromDraft(draft: Record<string, string>): MidjourneyFilters {
  const start = fromDateInput(draft.start ?? '');
  const end = fromDateInput(draft.end ?? '');
  return {
    channel_id: (draft.channel_id ?? '').trim(),
    mj_id: (draft.mj_id ?? '').trim(),
    start_timestamp: start * 1000,
    end_timestamp: end ? end * 1000 + 999 : 0,
  };
}
