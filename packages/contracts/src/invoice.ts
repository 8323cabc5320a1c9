import { z } from 'zod';
import { pageQuery } from './paging.js';

/**
 * Monthly invoices (UserInvoiceMonth): a user's usage per month, and per model within a month,
 * built from the daily statistics once the month is over (reference §1.4, §1.6).
 */
export const INVOICE_SORT_FIELDS = [
  'date',
  'request_count',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'request_time',
] as const;

export const invoiceListQuery = pageQuery;

const firstOfMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-01$/, 'date must be the first day of a month, as YYYY-MM-01');

/** GET /api/user/invoice/detail?date=YYYY-MM-01 */
export const invoiceDetailQuery = z.object({ date: firstOfMonth });

/** POST /api/option/invoice/{gen,update}/:time — any day of the month, YYYY-MM-DD. */
export const invoiceMonthParam = z.object({
  time: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'time must be a day, as YYYY-MM-DD'),
});

/** One month of a user's invoices: the sums over every model. */
export interface InvoiceMonth {
  /** The month's first day, YYYY-MM-01. */
  date: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Milliseconds spent on the month's requests, summed. */
  request_time: number;
}

/** One model's line of a month's invoice. */
export interface InvoiceModelRow extends InvoiceMonth {
  model_name: string;
}

/** What building a month's invoices did. */
export interface InvoiceGenerated {
  date: string;
  /** Rows (user × model) written. */
  count: number;
}
