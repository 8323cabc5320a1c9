import { describe, expect, it } from 'vitest';
import { activeFilterCount, filtersOf, listSearch } from '../../hooks/listParams.js';
import { parseLogListParams } from './useLogListParams.js';

describe('log list URL state', () => {
  it('reads every filter and drops values the server would refuse', () => {
    const params = parseLogListParams(
      new URLSearchParams(
        'log_type=2&start_timestamp=100&model_name=gpt-4o&username=bob&channel_id=3&page=2&order=-quota',
      ),
    );
    expect(params).toMatchObject({
      log_type: 2,
      start_timestamp: 100,
      end_timestamp: 0,
      model_name: 'gpt-4o',
      username: 'bob',
      channel_id: '3',
      page: 2,
      size: 10,
      order: '-quota',
    });
    expect(activeFilterCount(filtersOf(params))).toBe(5);
    const refused = parseLogListParams(new URLSearchParams('log_type=9&channel_id=x&order=secret&size=1000'));
    expect(refused).toMatchObject({ log_type: 0, channel_id: '', order: '', size: 10 });
    // Failed relay requests have their own type, which the filter offers.
    expect(parseLogListParams(new URLSearchParams('log_type=5')).log_type).toBe(5);
  });

  it('writes only what is set', () => {
    const params = parseLogListParams(new URLSearchParams('model_name=gpt-4o&page=1'));
    expect(listSearch(params).toString()).toBe('model_name=gpt-4o');
  });
});
