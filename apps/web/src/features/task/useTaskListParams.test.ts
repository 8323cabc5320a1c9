import { describe, expect, it } from 'vitest';
import { activeFilterCount, listSearch } from '../../hooks/listParams.js';
import { fromDateInput, toDateInput } from '../../lib/listState.js';
import { taskDraft, taskFromDraft } from './taskDraft.js';
import { emptyTaskFilters, parseTaskListParams, taskQuery } from './useTaskListParams.js';

describe('async task list state in the URL', () => {
  it('reads filters, paging and order, dropping what the server would refuse', () => {
    const params = parseTaskListParams(
      new URLSearchParams(
        'platform=suno&channel_id=3&user_id=abc&task_id= t1 &action=MUSIC&status=FAILURE&start_timestamp=100&page=2&size=20&order=-submit_time',
      ),
    );
    expect(params).toEqual({
      ...emptyTaskFilters,
      platform: 'suno',
      channel_id: '3',
      task_id: 't1',
      action: 'MUSIC',
      status: 'FAILURE',
      start_timestamp: 100,
      page: 2,
      size: 20,
      order: '-submit_time',
    });
    const refused = parseTaskListParams(new URLSearchParams('platform=midi&status=DONE&size=7&order=password&page=0'));
    expect(refused).toMatchObject({ platform: '', status: '', size: 10, order: '', page: 1 });
  });

  it('writes only what is set and round-trips', () => {
    const params = parseTaskListParams(new URLSearchParams('platform=kling&page=3'));
    expect(listSearch(params).toString()).toBe('platform=kling&page=3');
    expect(listSearch(parseTaskListParams(new URLSearchParams())).toString()).toBe('');
  });

  it('sends the channel and user filters only for administrators', () => {
    const params = { ...parseTaskListParams(new URLSearchParams('channel_id=4&user_id=9&task_id=x')) };
    expect(taskQuery(params, true)).toMatchObject({ channel_id: '4', user_id: '9', task_id: 'x' });
    expect(taskQuery(params, false)).not.toHaveProperty('channel_id');
    expect(taskQuery(params, false)).not.toHaveProperty('user_id');
    expect(taskQuery(params, false).start_timestamp).toBeUndefined();
  });

  it('turns the filter inputs into filters and back (seconds)', () => {
    const seconds = fromDateInput('2026-03-04T05:06:07');
    expect(toDateInput(seconds)).toBe('2026-03-04T05:06:07');
    expect(fromDateInput('')).toBe(0);
    const filters = taskFromDraft({ ...taskDraft(emptyTaskFilters), task_id: ' abc ', start: '2026-03-04T05:06:07' });
    expect(filters).toEqual({ ...emptyTaskFilters, task_id: 'abc', start_timestamp: seconds });
    expect(taskDraft(filters).start).toBe('2026-03-04T05:06:07');
    expect(activeFilterCount(filters)).toBe(2);
  });
});
