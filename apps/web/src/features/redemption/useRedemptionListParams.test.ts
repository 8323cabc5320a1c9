import { describe, expect, it } from 'vitest';
import { parseRedemptionListParams, redemptionListSearch } from './useRedemptionListParams.js';

const parse = (query: string) => parseRedemptionListParams(new URLSearchParams(query));

describe('redemption list params', () => {
  it('reads the defaults from an empty query', () => {
    expect(parse('')).toEqual({ keyword: '', status: 0, order: '', page: 1, size: 10 });
  });

  it('keeps keyword, status, order, page and size', () => {
    expect(parse('keyword=%20gift%20&status=3&order=-quota&page=4&size=50')).toEqual({
      keyword: 'gift',
      status: 3,
      order: '-quota',
      page: 4,
      size: 50,
    });
  });

  it('drops values the server would refuse', () => {
    expect(parse('status=9&order=key_hash&page=0&size=7')).toEqual({
      keyword: '',
      status: 0,
      order: '',
      page: 1,
      size: 10,
    });
    expect(parse('status=abc&page=2.5').status).toBe(0);
  });

  it('writes only what differs from the defaults and reads it back', () => {
    expect(redemptionListSearch(parse('')).toString()).toBe('');
    const params = { keyword: 'x', status: 2, order: 'name', page: 3, size: 20 };
    expect(parse(redemptionListSearch(params).toString())).toEqual(params);
  });
});
