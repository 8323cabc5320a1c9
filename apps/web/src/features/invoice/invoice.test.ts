import { describe, expect, it } from 'vitest';
import { monthLabel, parseInvoiceListParams, seconds } from './invoiceParams.js';

describe('invoice list helpers', () => {
  it('keeps only orders, pages and sizes the server accepts', () => {
    expect(parseInvoiceListParams(new URLSearchParams('order=-quota&page=2&size=20'))).toEqual({
      order: '-quota',
      page: 2,
      size: 20,
    });
    expect(parseInvoiceListParams(new URLSearchParams('order=user_id&page=-1&size=33'))).toEqual({
      order: '',
      page: 1,
      size: 10,
    });
  });

  it('names a month in the console language and shows time in seconds', () => {
    expect(monthLabel('2026-10-01', 'en_US')).toBe('October 2026');
    expect(monthLabel('2026-01-01', 'zh_CN')).toBe('2026年1月');
    expect(seconds(12_345)).toBe('12.3 s');
  });
});
