import { z } from 'zod';

export const MAX_PAGE_SIZE = 100;

/** The largest value a 32-bit INTEGER column (row ids) holds on every supported database. */
export const MAX_INTEGER_COLUMN = 2_147_483_647;

/** A search keyword that can be a row id: digits only and small enough for the id column. */
export function keywordAsRowId(keyword: string): number | undefined {
  return /^\d+$/.test(keyword) && Number(keyword) <= MAX_INTEGER_COLUMN ? Number(keyword) : undefined;
}
export const DEFAULT_PAGE_SIZE = 10;

/** A time bound of a list filter in Unix seconds; 0 or an empty value means "no bound", as the reference console sends it. */
export function unixSecondsFilter(field: string) {
  return z.coerce
    .number(`${field} must be a Unix time in seconds`)
    .int(`${field} must be a whole number of seconds`)
    .min(0, `${field} must not be negative`)
    .max(Number.MAX_SAFE_INTEGER, `${field} is too large`)
    .optional();
}

/** Query of every paged list: 1-based `page`, `size` ≤ 100, `order` = "field,-other". */
export const pageQuery = z.object({
  page: z.coerce
    .number('page must be a number')
    .int('page must be an integer')
    .catch(1)
    .transform((page) => Math.max(1, page)),
  size: z.coerce
    .number('size must be a number')
    .int('size must be an integer')
    .max(MAX_PAGE_SIZE, `size must not exceed ${MAX_PAGE_SIZE}`)
    .optional()
    .transform((size) => (size === undefined || size < 1 ? DEFAULT_PAGE_SIZE : size)),
  order: z.string().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const keywordPageQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
});
export type KeywordPageQuery = z.infer<typeof keywordPageQuery>;

/** Path parameter `:id`. */
export const idParam = z.object({
  id: z.coerce.number('id must be a number').int('id must be an integer').positive('id must be positive'),
});
