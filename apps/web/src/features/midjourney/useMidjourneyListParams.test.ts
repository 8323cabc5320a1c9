import { describe, expect, it } from 'vitest';
import { listSearch } from '../../hooks/listParams.js';
import { fromDateInput } from '../../lib/listState.js';
import { midjourneyDraft, midjourneyFromDraft } from './midjourneyDraft.js';
import { midjourneyQuery } from './midjourneyQuery.js';
import { emptyMidjourneyFilters, parseMidjourneyListParams } from './useMidjourneyListParams.js';

describe('Midjourney list state', () => {
  it('reads filters, paging and order from the URL, dropping what the server would refuse', () => {
    const params = parseMidjourneyListParams(
      new URLSearchParams('channel_id=2&mj_id= 171 &start_timestamp=1700000000000&order=-submit_time&size=50'),
    );
    expect(params).toEqual({
      channel_id: '2',
      mj_id: '171',
      start_timestamp: 1_700_000_000_000,
      end_timestamp: 0,
      page: 1,
      size: 50,
      order: '-submit_time',
    });
    expect(parseMidjourneyListParams(new URLSearchParams('channel_id=-1&order=prompt'))).toMatchObject({
      channel_id: '',
      order: '',
    });
    expect(listSearch(params).toString()).toBe(
      'channel_id=2&mj_id=171&start_timestamp=1700000000000&size=50&order=-submit_time',
    );
  });

  it('filters submit time in milliseconds, the end bound taking in its whole second', () => {
    const seconds = fromDateInput('2026-03-04T05:06:07');
    const filters = midjourneyFromDraft({ start: '2026-03-04T05:06:07', end: '2026-03-04T05:06:07', mj_id: '' });
    expect(filters.start_timestamp).toBe(seconds * 1000);
    expect(filters.end_timestamp).toBe(seconds * 1000 + 999);
    expect(midjourneyDraft(filters)).toMatchObject({ start: '2026-03-04T05:06:07', end: '2026-03-04T05:06:07' });
    expect(midjourneyFromDraft(midjourneyDraft(emptyMidjourneyFilters))).toEqual(emptyMidjourneyFilters);
  });

  it('sends the channel filter only for administrators', () => {
    const params = parseMidjourneyListParams(new URLSearchParams('channel_id=2'));
    expect(midjourneyQuery(params, true).channel_id).toBe('2');
    expect(midjourneyQuery(params, false)).not.toHaveProperty('channel_id');
  });
});
