import { describe, expect, it } from 'vitest';
import { parseUserListParams, userListSearch } from './useUserListParams.js';

describe('user list params', () => {
  it('reads keyword, order, page and size from the URL', () => {
    const params = parseUserListParams(new URLSearchParams('keyword=%20ali%20&order=-quota&page=3&size=50'));
    expect(params).toEqual({ keyword: 'ali', order: '-quota', page: 3, size: 50 });
  });

  it('drops what the server would refuse', () => {
    const params = parseUserListParams(new URLSearchParams('order=password&page=-2&size=7'));
    expect(params).toEqual({ keyword: '', order: '', page: 1, size: 10 });
  });

  it('writes only what differs from the defaults', () => {
    expect(userListSearch({ keyword: '', order: '', page: 1, size: 10 }).toString()).toBe('');
    expect(userListSearch({ keyword: 'bob', order: 'id', page: 2, size: 20 }).toString()).toBe(
      'keyword=bob&order=id&page=2&size=20',
    );
  });
});
