import { describe, expect, it } from 'vitest';
import { activeChannelFilterCount, channelListSearch, parseChannelListParams } from './useChannelListParams.js';

describe('channel list parameters in the URL', () => {
  it('defaults to every channel, unfolded, page 1 of 10', () => {
    expect(parseChannelListParams(new URLSearchParams())).toEqual({
      name: '',
      group: '',
      models: '',
      other: '',
      test_model: '',
      tag: '',
      type: 0,
      status: 0,
      filter_tag: 3,
      order: '',
      page: 1,
      size: 10,
    });
    expect(channelListSearch(parseChannelListParams(new URLSearchParams())).toString()).toBe('');
  });

  it('reads and writes every filter back the same', () => {
    const text =
      'name=main&group=vip&models=gpt&other=2024&test_model=o1&tag=team&type=3&status=2&filter_tag=0&order=-priority&page=3&size=50';
    const params = parseChannelListParams(new URLSearchParams(text));
    expect(params).toMatchObject({
      type: 3,
      status: 2,
      filter_tag: 0,
      order: '-priority',
      page: 3,
      size: 50,
      tag: 'team',
    });
    expect(new URLSearchParams(channelListSearch(params)).toString()).toBe(new URLSearchParams(text).toString());
  });

  it('drops values the server would refuse', () => {
    const params = parseChannelListParams(
      new URLSearchParams('order=-key&status=9&filter_tag=7&size=1000&page=0&type=-2'),
    );
    expect(params).toMatchObject({ order: '', status: 0, filter_tag: 3, size: 10, page: 1, type: 0 });
  });

  it('counts the filters set besides the name search', () => {
    const params = parseChannelListParams(new URLSearchParams('name=x&type=1&tag=t'));
    expect(activeChannelFilterCount(params, '')).toBe(2);
    expect(activeChannelFilterCount(params, 'sk-1')).toBe(3);
  });
});
