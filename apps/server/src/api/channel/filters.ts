import type { ChannelListQuery } from '@one-hub/contracts';
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { type Database, startsWithIgnoringCase } from '../../platform/db/index.js';

type ChannelQuery<Row> = SelectQueryBuilder<Database, 'channels', Row>;
type ChannelWhere = ExpressionBuilder<Database, 'channels'>;

/** `!` escapes LIKE wildcards: a backslash is read differently by MySQL and PostgreSQL literals. */
function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (character) => `!${character}`);
}

function like(column: string, pattern: string) {
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
}

/** Case-insensitive "contains", the same on the three databases (PostgreSQL's LIKE is case-sensitive). */
function containsIgnoringCase(column: string, keyword: string) {
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${escapeLike(keyword.toLowerCase())}%`} escape '!'`;
}

/** True when one element of a comma list column equals `element` (lists are stored without spaces). */
function listHasElement(where: ChannelWhere, column: 'group' | 'models', element: string) {
  const escaped = escapeLike(element);
  return where.or([
    where(column, '=', element),
    like(column, `${escaped},%`),
    like(column, `%,${escaped}`),
    like(column, `%,${escaped},%`),
  ]);
}

/** One row per tag: the channel with the highest id stands for its tag in tag-folded lists. */
function tagRepresentatives(where: ChannelWhere) {
  return where(
    'id',
    'in',
    where
      .selectFrom('channels as tagged')
      .select((select) => select.fn.max('tagged.id').as('id'))
      .where('tagged.tag', '!=', '')
      .where('tagged.deleted_at', 'is', null)
      .groupBy('tagged.tag'),
  );
}

export type ChannelFilter = Omit<ChannelListQuery, 'page' | 'size' | 'order' | 'key'>;

/** Applies every list filter except `key`, which needs decryption and is done by the repository. */
export function applyChannelFilter<Row>(query: ChannelQuery<Row>, filter: ChannelFilter): ChannelQuery<Row> {
  let filtered = query;
  // 0 is "any" for type and status, as in the reference's query parameters.
  if (filter.type) filtered = filtered.where('type', '=', filter.type);
  if (filter.status) filtered = filtered.where('status', '=', filter.status);
  if (filter.name) filtered = filtered.where(containsIgnoringCase('name', filter.name));
  if (filter.models) filtered = filtered.where(containsIgnoringCase('models', filter.models));
  if (filter.group) {
    const group = filter.group;
    filtered = filtered.where((where) => listHasElement(where, 'group', group));
  }
  if (filter.other) filtered = filtered.where(startsWithIgnoringCase('other', filter.other));
  if (filter.test_model) filtered = filtered.where(startsWithIgnoringCase('test_model', filter.test_model));
  if (filter.tag) filtered = filtered.where('tag', '=', filter.tag);
  if (filter.filter_tag === 1) filtered = filtered.where('tag', '=', '');
  if (filter.filter_tag === 2) filtered = filtered.where(tagRepresentatives);
  // 3 folds nothing: every channel is listed, tagged or not.
  if (filter.filter_tag === 0) {
    filtered = filtered.where((where) => where.or([where('tag', '=', ''), tagRepresentatives(where)]));
  }
  return filtered;
}
