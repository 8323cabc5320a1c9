import type {
  LogExportQuery,
  LogListQuery,
  LogStat,
  LogStatQuery,
  LogView,
  OwnLogExportQuery,
  OwnLogListQuery,
  OwnLogStatQuery,
  Paged,
} from '@one-hub/contracts';
import type { ExportTable } from '../../http/export-stream.js';
import { nowSeconds } from '../../platform/clock.js';
import type { DatabaseHandle, LogRow, UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { UserRepository } from '../user/repo.js';
import { ConsumeQuotaReader } from './consume-quota.js';
import { LOG_EXPORT_COLUMNS, toLogView } from './presenter.js';
import { type LogFilter, LogQueryRepository } from './query-repo.js';

/** rpm and tpm look at this trailing window, in seconds. */
const RATE_WINDOW_SECONDS = 60;

/** Rows an export reads per query: all it holds at a time, however many rows it writes. */
export const LOG_EXPORT_PAGE_SIZE = 1_000;

function ownFilter(userId: number, query: OwnLogStatQuery): LogFilter {
  return {
    userId,
    startTimestamp: query.start_timestamp,
    endTimestamp: query.end_timestamp,
    modelName: query.model_name,
    tokenName: query.token_name,
    requestId: query.request_id,
  };
}

function adminFilter(query: Omit<LogStatQuery, 'channel'>): LogFilter {
  return {
    startTimestamp: query.start_timestamp,
    endTimestamp: query.end_timestamp,
    modelName: query.model_name,
    username: query.username,
    tokenName: query.token_name,
    channelId: query.channel_id,
    sourceIp: query.source_ip,
    requestId: query.request_id,
  };
}

export class LogService {
  private readonly repo: LogQueryRepository;
  private readonly consumeQuota: ConsumeQuotaReader;
  private readonly users: UserRepository;

  constructor(readonly handle: DatabaseHandle) {
    this.repo = new LogQueryRepository(handle);
    this.users = new UserRepository(handle);
    this.consumeQuota = new ConsumeQuotaReader(handle, this.repo);
  }

  /**
   * Administrators' view of the logs, each row with its channel's id and name: root sees every
   * log, an admin its own and those of the users it outranks.
   */
  async list(caller: UserRow, query: LogListQuery): Promise<Paged<LogView>> {
    const page = await this.repo.list(await this.callersFilter(caller, query), query);
    return { ...page, data: await this.withChannels(page.data) };
  }

  /** Every log `list` would show the caller under the same filters, newest first, as list rows. */
  exportAll(caller: UserRow, query: LogExportQuery, pageSize = LOG_EXPORT_PAGE_SIZE): ExportTable<LogView> {
    return { pages: this.allPages(caller, query, pageSize), columns: LOG_EXPORT_COLUMNS, fileStem: 'logs' };
  }

  /** Every log `listOwn` would show the user under the same filters, newest first, as list rows. */
  exportOwn(user: UserRow, query: OwnLogExportQuery, pageSize = LOG_EXPORT_PAGE_SIZE): ExportTable<LogView> {
    return { pages: this.ownPages(user, query, pageSize), columns: LOG_EXPORT_COLUMNS, fileStem: 'logs' };
  }

  private async *allPages(caller: UserRow, query: LogExportQuery, pageSize: number): AsyncGenerator<LogView[]> {
    const filter = await this.callersFilter(caller, query);
    for await (const rows of this.repo.newestFirstPages(filter, pageSize)) yield await this.withChannels(rows);
  }

  private async *ownPages(user: UserRow, query: OwnLogExportQuery, pageSize: number): AsyncGenerator<LogView[]> {
    const filter = { ...ownFilter(user.id, query), type: query.log_type };
    for await (const rows of this.repo.newestFirstPages(filter, pageSize)) yield rows.map(ownView);
  }

  /** An administrator's filters, narrowed to the users the caller outranks: the list's and the export's. */
  private async callersFilter(caller: UserRow, query: Omit<LogExportQuery, 'format'>): Promise<LogFilter> {
    const hiddenUserIds = await this.users.idsNotOutrankedBy(caller);
    return { ...adminFilter(query), type: query.log_type, hiddenUserIds };
  }

  /**
   * A user's own logs. Channel names are operator data, so they are not looked up here, and the
   * route explanation (which channels were tried or passed over, and why) is left out.
   */
  async listOwn(user: UserRow, query: OwnLogListQuery): Promise<Paged<LogView>> {
    const page = await this.repo.list({ ...ownFilter(user.id, query), type: query.log_type }, query);
    return { ...page, data: page.data.map(ownView) };
  }

  /** Administrators' rows: each with its channel's id and name, looked up in one query per page. */
  private async withChannels(rows: readonly LogRow[]): Promise<LogView[]> {
    const names = await this.repo.channelNames(rows.map((row) => Number(row.channel_id)));
    return rows.map((row) => {
      const channelId = Number(row.channel_id);
      const name = names.get(channelId);
      return toLogView(row, name === undefined ? null : { id: channelId, name });
    });
  }

  /** Sums over the logs `list` would show the caller. */
  async stat(caller: UserRow, query: LogStatQuery): Promise<LogStat> {
    const { channel, ...rest } = query;
    const hiddenUserIds = await this.users.idsNotOutrankedBy(caller);
    return this.statFor({ ...adminFilter(rest), channelId: rest.channel_id || channel, hiddenUserIds });
  }

  ownStat(user: UserRow, query: OwnLogStatQuery): Promise<LogStat> {
    return this.statFor(ownFilter(user.id, query));
  }

  /** Prunes consume logs older than `target` (Unix seconds); other log types are an audit trail and stay. */
  async deleteConsumeLogsBefore(target: number): Promise<number> {
    if (target > nowSeconds()) {
      throw AppError.badRequest('target_timestamp must not be in the future: logs from now on would be deleted too');
    }
    return this.repo.deleteConsumeLogsBefore(target);
  }

  /** `quota` honours the time range; rpm/tpm keep the other filters but look only at the last minute. */
  private async statFor(filter: LogFilter): Promise<LogStat> {
    const now = nowSeconds();
    const quota = await this.consumeQuota.quota(filter, now);
    const recent = await this.repo.consumeTotals({
      ...filter,
      startTimestamp: now - RATE_WINDOW_SECONDS,
      endTimestamp: undefined,
    });
    return { quota, rpm: recent.requests, tpm: recent.tokens };
  }

  /** Retention: deletes one batch of expired logs (see LogQueryRepository.deleteExpiredBatch). */
  deleteExpiredBatch(before: number, limit: number): Promise<number> {
    return this.repo.deleteExpiredBatch(before, limit);
  }
}

/** A user's own row: no channel name and no route explanation (see listOwn). */
function ownView(row: LogRow): LogView {
  return withoutRoute(toLogView(row, null));
}

function withoutRoute(view: LogView): LogView {
  if (!('route' in view.metadata)) return view;
  const { route: _route, ...metadata } = view.metadata;
  return { ...view, metadata };
}
