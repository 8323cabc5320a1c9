import { LOG_COUNT_CAP, LOG_SORT_FIELDS, LogType, type Paged, type PageQuery } from '@one-hub/contracts';
import { sql } from 'kysely';
import { type DatabaseHandle, type LogRow, parseOrder, whereGiven } from '../../platform/db/index.js';
import type { SortKey } from '../../platform/db/paging.js';

/** Every filter the log routes know; each is skipped when empty or 0. */
export interface LogFilter {
  userId?: number | undefined;
  type?: number | undefined;
  startTimestamp?: number | undefined;
  endTimestamp?: number | undefined;
  modelName?: string | undefined;
  username?: string | undefined;
  tokenName?: string | undefined;
  channelId?: number | undefined;
  sourceIp?: string | undefined;
  requestId?: string | undefined;
  /** Users whose logs the caller may not see (an admin: root and the other admins); a short list. */
  hiddenUserIds?: readonly number[] | undefined;
}

/** Where a page of an export ends: its last row's time and id. */
export interface LogCursor {
  createdAt: number;
  id: number;
}

export interface ConsumeTotals {
  quota: number;
  requests: number;
  tokens: number;
}

/** Log types whose rows retention removes: usage and failed requests, not the record of money moving. */
export const EXPIRING_LOG_TYPES = [LogType.consume, LogType.error] as const;

/** Rows per DELETE statement of the manual cleanup (`DELETE /api/log/`). */
const CLEANUP_BATCH = 5_000;

/**
 * Newest first, by time and then id: every filter's index (migrations 0012, 0014 for a user's own
 * logs by model or token, 0027 for the pairs of filters sent together) has these two columns after
 * the filters', so a page is read in index order. An order by another column keeps time and id as
 * tie-breakers in that column's direction, so the column's own index serves it in one walk.
 */
export function logSortKeys(order: string | undefined): SortKey[] {
  const keys = parseOrder(order, LOG_SORT_FIELDS);
  const named = (order ?? '').split(',').map((part) => part.trim().replace(/^-/, ''));
  // An order naming `id` is already total.
  if (named.includes('id')) return keys;
  // Without `id`, parseOrder appended `id desc` last: the tie-breakers are chosen here instead.
  const chosen = keys.slice(0, -1);
  const direction = chosen[0]?.direction ?? 'desc';
  if (!chosen.some((key) => key.column === 'created_at')) chosen.push({ column: 'created_at', direction });
  chosen.push({ column: 'id', direction });
  return chosen;
}

/** Reads and prunes the `logs` table; writes go through LogRepository and LogWriter. */
export class LogQueryRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  private filtered(filter: LogFilter) {
    let query = this.handle.db.selectFrom('logs');
    // user_id is checked first and unconditionally when present: it is what keeps one user out of another's logs.
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    // A row filter on top of whichever index the other filters choose: the list is a handful of staff ids.
    if (filter.hiddenUserIds?.length) query = query.where('user_id', 'not in', [...filter.hiddenUserIds]);
    if (filter.startTimestamp) query = query.where('created_at', '>=', filter.startTimestamp);
    if (filter.endTimestamp) query = query.where('created_at', '<=', filter.endTimestamp);
    return whereGiven(query, {
      type: filter.type,
      model_name: filter.modelName,
      username: filter.username,
      token_name: filter.tokenName,
      channel_id: filter.channelId,
      source_ip: filter.sourceIp,
      request_id: filter.requestId,
    });
  }

  /** One page, and how many rows match, counted up to LOG_COUNT_CAP. */
  async list(filter: LogFilter, paging: PageQuery): Promise<Paged<LogRow>> {
    const sortKeys = logSortKeys(paging.order);
    let ordered = this.filtered(filter).selectAll();
    for (const key of sortKeys) ordered = ordered.orderBy(sql.ref(key.column), key.direction);
    const rows = await ordered
      .limit(paging.size)
      .offset((paging.page - 1) * paging.size)
      .execute();
    return { data: rows, page: paging.page, size: paging.size, total_count: await this.cappedCount(filter) };
  }

  /**
   * Every matching row, newest first exactly as the list orders them by default, a page at a time.
   * Each page continues after the last row of the one before (keyset on created_at and id, which
   * end every filter's index), so page 10,000 costs what page 1 does; offsets would not.
   */
  async *newestFirstPages(filter: LogFilter, pageSize: number): AsyncGenerator<LogRow[]> {
    let after: LogCursor | undefined;
    for (;;) {
      const rows = await this.pageBefore(filter, after, pageSize);
      if (rows.length > 0) yield rows;
      const last = rows.at(-1);
      if (!last || rows.length < pageSize) return;
      after = { createdAt: Number(last.created_at), id: Number(last.id) };
    }
  }

  /** Up to `size` rows older than `cursor` (all of them without one), newest first: one query. */
  pageBefore(filter: LogFilter, cursor: LogCursor | undefined, size: number): Promise<LogRow[]> {
    let query = this.filtered(filter).selectAll();
    if (cursor) {
      // The plain range on created_at lets every database walk the index from the cursor on.
      query = query
        .where('created_at', '<=', cursor.createdAt)
        .where((row) => row.or([row('created_at', '<', cursor.createdAt), row('id', '<', cursor.id)]));
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(size).execute();
  }

  /** Stops counting at the cap, so the cost is bounded whatever the table's size. */
  private async cappedCount(filter: LogFilter): Promise<number> {
    const capped = this.filtered(filter).select(sql<number>`1`.as('one')).limit(LOG_COUNT_CAP).as('capped');
    const row = await this.handle.db
      .selectFrom(capped)
      .select(sql<number | string>`count(*)`.as('total'))
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** Names of live channels, fetched in one query for a whole page of logs. */
  async channelNames(ids: readonly number[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids.filter((id) => id > 0))];
    if (wanted.length === 0) return new Map();
    const rows = await this.handle.db
      .selectFrom('channels')
      .select(['id', 'name'])
      .where('id', 'in', wanted)
      .where('deleted_at', 'is', null)
      .execute();
    return new Map(rows.map((row) => [Number(row.id), row.name]));
  }

  /** Sums over consume logs only, read row by row: the other types record money moving, not usage. */
  async consumeTotals(filter: LogFilter): Promise<ConsumeTotals> {
    const row = await this.filtered({ ...filter, type: LogType.consume })
      .select([
        sql<number | string | null>`sum(quota)`.as('quota'),
        sql<number | string>`count(*)`.as('requests'),
        sql<number | string | null>`sum(prompt_tokens + completion_tokens)`.as('tokens'),
      ])
      .executeTakeFirst();
    return {
      quota: Number(row?.quota ?? 0),
      requests: Number(row?.requests ?? 0),
      tokens: Number(row?.tokens ?? 0),
    };
  }

  /** Summed quota of the consume logs under the filter; unfiltered, (type, created_at, id, quota) covers it. */
  async consumeQuota(filter: LogFilter): Promise<number> {
    const row = await this.filtered({ ...filter, type: LogType.consume })
      .select(sql<number | string | null>`sum(quota)`.as('quota'))
      .executeTakeFirst();
    return Number(row?.quota ?? 0);
  }

  /** When the oldest consume log still kept was made; undefined when there is none. */
  async oldestConsumeLogTime(): Promise<number | undefined> {
    const row = await this.handle.db
      .selectFrom('logs')
      .select(sql<number | string | null>`min(created_at)`.as('first'))
      .where('type', '=', LogType.consume)
      .executeTakeFirst();
    return row?.first === null || row?.first === undefined ? undefined : Number(row.first);
  }

  /**
   * Deletes consume logs created strictly before `timestamp`; returns how many went. In batches of
   * ids, like retention, so a cleanup of millions of rows never holds the table in one statement.
   */
  async deleteConsumeLogsBefore(timestamp: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.deleteBatch([LogType.consume], timestamp, CLEANUP_BATCH);
      deleted += batch;
      if (batch < CLEANUP_BATCH) return deleted;
    }
  }

  /** Retention: at most `limit` expired logs (consume ones first, oldest first) created before `timestamp`. */
  deleteExpiredBatch(timestamp: number, limit: number): Promise<number> {
    return this.deleteBatch(EXPIRING_LOG_TYPES, timestamp, limit);
  }

  /**
   * Deletes at most `limit` logs of the types, oldest first, by their ids, so each statement
   * touches a bounded number of rows and holds its locks briefly. One type at a time, so each
   * lookup is a plain walk of the (type, created_at, id) index on every database.
   */
  private async deleteBatch(types: readonly number[], timestamp: number, limit: number): Promise<number> {
    const ids: number[] = [];
    for (const type of types) {
      if (ids.length >= limit) break;
      const rows = await this.handle.db
        .selectFrom('logs')
        .select('id')
        .where('type', '=', type)
        .where('created_at', '<', timestamp)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit - ids.length)
        .execute();
      for (const row of rows) ids.push(Number(row.id));
    }
    if (ids.length === 0) return 0;
    const result = await this.handle.db.deleteFrom('logs').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
