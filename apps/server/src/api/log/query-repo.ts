import { LOG_SORT_FIELDS, LogType, type Paged, type PageQuery } from '@one-hub/contracts';
import { sql } from 'kysely';
import { type DatabaseHandle, fetchPage, type LogRow } from '../../platform/db/index.js';

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
}

export interface ConsumeTotals {
  quota: number;
  requests: number;
  tokens: number;
}

/** Reads and prunes the `logs` table; writes go through LogRepository and LogWriter. */
export class LogQueryRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  private filtered(filter: LogFilter) {
    let query = this.handle.db.selectFrom('logs');
    // user_id is checked first and unconditionally when present: it is what keeps one user out of another's logs.
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.type) query = query.where('type', '=', filter.type);
    if (filter.startTimestamp) query = query.where('created_at', '>=', filter.startTimestamp);
    if (filter.endTimestamp) query = query.where('created_at', '<=', filter.endTimestamp);
    if (filter.modelName) query = query.where('model_name', '=', filter.modelName);
    if (filter.username) query = query.where('username', '=', filter.username);
    if (filter.tokenName) query = query.where('token_name', '=', filter.tokenName);
    if (filter.channelId) query = query.where('channel_id', '=', filter.channelId);
    if (filter.sourceIp) query = query.where('source_ip', '=', filter.sourceIp);
    if (filter.requestId) query = query.where('request_id', '=', filter.requestId);
    return query;
  }

  list(filter: LogFilter, paging: PageQuery): Promise<Paged<LogRow>> {
    return fetchPage(this.filtered(filter).selectAll(), paging, LOG_SORT_FIELDS);
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

  /** Sums over consume logs only: the other types record money moving, not usage. */
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

  /** Deletes consume logs created strictly before `timestamp`; returns how many went. */
  async deleteConsumeLogsBefore(timestamp: number): Promise<number> {
    const result = await this.handle.db
      .deleteFrom('logs')
      .where('type', '=', LogType.consume)
      .where('created_at', '<', timestamp)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
