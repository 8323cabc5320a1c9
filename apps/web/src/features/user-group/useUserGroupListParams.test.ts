import { describe, expect, it } from 'vitest';
import { parseUserGroupListParams, userGroupListSearch } from './useUserGroupListParams.js';

describe('user group list params', () => {
  it('reads name, enable, order, page and size from the URL', () => {
    const params = parseUserGroupListParams(new URLSearchParams('name=te&enable=false&order=-ratio&page=2&size=20'));
    expect(params).toEqual({ name: 'te', enable: 'false', order: '-ratio', page: 2, size: 20 });
  });

  it('drops what the server would refuse', () => {
    const params = parseUserGroupListParams(new URLSearchParams('enable=maybe&order=min&size=1000&page=x'));
    expect(params).toEqual({ name: '', enable: '', order: '', page: 1, size: 10 });
  });

  it('writes only what differs from the defaults', () => {
    expect(userGroupListSearch({ name: '', enable: '', order: '', page: 1, size: 10 }).toString()).toBe('');
    expect(userGroupListSearch({ name: 'v', enable: 'true', order: 'id', page: 3, size: 50 }).toString()).toBe(
      'name=v&enable=true&order=id&page=3&size=50',
    );
  });
});
