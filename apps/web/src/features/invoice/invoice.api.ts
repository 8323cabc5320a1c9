import type { InvoiceModelRow, InvoiceMonth, Paged } from '@one-hub/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import { api, withQuery } from '../../lib/api.js';
import { type InvoiceListParams, invoiceListSearch, parseInvoiceListParams } from './invoiceParams.js';

export function useInvoiceListParams() {
  return useUrlListParams(parseInvoiceListParams, invoiceListSearch);
}

/** GET /api/user/invoice: the signed-in user's months, newest first. */
export function useInvoiceMonths(params: InvoiceListParams) {
  return useQuery({
    queryKey: ['user', 'invoice', params],
    queryFn: () => api.get<Paged<InvoiceMonth>>(withQuery('/api/user/invoice', { ...params })),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/user/invoice/detail: one month's lines, one a model. */
export function useInvoiceDetail(month: string) {
  return useQuery({
    queryKey: ['user', 'invoice', 'detail', month],
    queryFn: () => api.get<InvoiceModelRow[]>(withQuery('/api/user/invoice/detail', { date: month })),
  });
}
