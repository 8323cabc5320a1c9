import type { Paged, PageQuery } from '@one-hub/contracts';
import { type SelectQueryBuilder, sql } from 'kysely';
import { AppError } from '../errors.js';

export interface SortKey {
  column: string;
  direction: 'asc' | 'desc';
}

/** Parses `order=name,-created_time` against the route's allow-list; unknown fields are a 400. */
export function parseOrder(
  order: string | undefined,
  sortable: readonly string[],
  /** The key that ends every order so pages are stable; the primary key unless a list has none. */
  last: SortKey = { column: 'id', direction: 'desc' },
): SortKey[] {
  const keys: SortKey[] = [];
  for (const part of (order ?? '').split(',')) {
    const field = part.trim();
    if (!field) continue;
    const descending = field.startsWith('-');
    const column = descending ? field.slice(1) : field;
    if (!sortable.includes(column)) {
      throw AppError.badRequest(`order: cannot sort by field '${column}'; allowed: ${sortable.join(', ')}`);
    }
    keys.push({ column, direction: descending ? 'desc' : 'asc' });
  }
  // Always end on a unique key so pages are stable when other keys tie.
  if (!keys.some((key) => key.column === last.column)) keys.push(last);
  return keys;
}

/** Counts the filtered rows, then fetches one ordered page of them. */
export async function fetchPage<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  paging: PageQuery,
  sortable: readonly string[],
): Promise<Paged<Row>> {
  const sortKeys = parseOrder(paging.order, sortable);
  const counted = await query
    .clearSelect()
    .clearOrderBy()
    .select(sql<number | string>`count(*)`.as('total'))
    .executeTakeFirst();
  let ordered = query;
  for (const key of sortKeys) ordered = ordered.orderBy(sql.ref(key.column), key.direction);
  const rows = await ordered
    .limit(paging.size)
    .offset((paging.page - 1) * paging.size)
    .execute();
  const total = Number((counted as { total?: number | string } | undefined)?.total ?? 0);
  return { data: rows, page: paging.page, size: paging.size, total_count: total };
}

/**
 * Case-insensitive "starts with" that behaves the same on all three databases. `!` is the escape
 * character because a backslash is read differently by MySQL and PostgreSQL string literals.
 */
export function startsWithIgnoringCase(column: string, keyword: string) {
  const pattern = `${keyword.toLowerCase().replace(/[!%_]/g, (character) => `!${character}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '!'`;
}

/**
 * Narrows a list to `column = value` for each filter the query gives; an absent, empty or zero
 * filter means "any", as the list queries' parameters do.
 */
export function whereGiven<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  filters: { readonly [Column in keyof DB[TB] & string]?: string | number | undefined },
): SelectQueryBuilder<DB, TB, Row> {
  let narrowed = query;
  for (const [column, value] of Object.entries<string | number | undefined>(filters)) {
    if (value) narrowed = narrowed.where(sql<boolean>`${sql.ref(column)} = ${value}`);
  }
  return narrowed;
}
