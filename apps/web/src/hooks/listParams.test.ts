import { DEFAULT_PAGE_SIZE } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { activeFilterCount, listSearch, PAGE_SIZES, parsePaging, wholeNumber, writePaging } from './listParams.js';

describe('list URL state', () => {
  it('reads whole numbers at or above a minimum, and nothing else', () => {
    expect(wholeNumber('12', 1)).toBe(12);
    expect(wholeNumber('0', 0)).toBe(0);
    for (const text of [null, '', '0', '-3', '1.5', 'x', '1e400']) expect(wholeNumber(text, 1)).toBeNull();
  });

  it('keeps an order by a listed field and a listed size, and drops the rest', () => {
    const read = (query: string, sizes?: readonly number[]) =>
      parsePaging(new URLSearchParams(query), ['name', 'id'], sizes);
    expect(read('order=-name&page=3&size=50')).toEqual({ order: '-name', page: 3, size: 50 });
    expect(read('order=password&page=0&size=7')).toEqual({ order: '', page: 1, size: DEFAULT_PAGE_SIZE });
    expect(read('size=100', [10, 20, 50])).toMatchObject({ size: DEFAULT_PAGE_SIZE });
    // A list that names no sort fields keeps any order, trimmed.
    expect(parsePaging(new URLSearchParams('order=%20-created_at%20')).order).toBe('-created_at');
    expect(PAGE_SIZES).toContain(DEFAULT_PAGE_SIZE);
  });

  it('writes only what differs from the defaults', () => {
    expect(
      writePaging(new URLSearchParams('keyword=a'), { order: '', page: 1, size: DEFAULT_PAGE_SIZE }).toString(),
    ).toBe('keyword=a');
    expect(writePaging(new URLSearchParams(), { order: '-id', page: 2, size: 50 }).toString()).toBe(
      'order=-id&page=2&size=50',
    );
    expect(listSearch({ name: 'x', channel_id: '', status: 0, page: 1, size: DEFAULT_PAGE_SIZE }).toString()).toBe(
      'name=x',
    );
    expect(activeFilterCount({ name: 'x', channel_id: '', status: 2 })).toBe(2);
  });
});
