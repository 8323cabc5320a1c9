import type {
  LogListQuery,
  LogStat,
  LogStatQuery,
  LogView,
  OwnLogListQuery,
  OwnLogStatQuery,
  Paged,
} from '@one-hub/contracts';
import { nowSeconds } from '../../platform/clock.js';
import type { DatabaseHandle, UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { UserRepository } from '../user/repo.js';
import { ConsumeQuotaReader } from './consume-quota.js';
import { toLogView } from './presenter.js';
import { type LogFilter, LogQueryRepository } from './query-repo.js';

/** rpm and tpm look at this trailing window, in seconds. */
const RATE_WINDOW_SECONDS = 60;

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
    const hiddenUserIds = await this.users.idsNotOutrankedBy(caller);
    const page = await this.repo.list({ ...adminFilter(query), type: query.log_type, hiddenUserIds }, query);
    const names = await this.repo.channelNames(page.data.map((row) => Number(row.channel_id)));
    return {
      ...page,
      data: page.data.map((row) => {
        const channelId = Number(row.channel_id);
        const name = names.get(channelId);
        return toLogView(row, name === undefined ? null : { id: channelId, name });
      }),
    };
  }

  /**
   * A user's own logs. Channel names are operator data, so they are not looked up here, and the
   * route explanation (which channels were tried or passed over, and why) is left out.
   */
  async listOwn(user: UserRow, query: OwnLogListQuery): Promise<Paged<LogView>> {
    const page = await this.repo.list({ ...ownFilter(user.id, query), type: query.log_type }, query);
    return { ...page, data: page.data.map((row) => withoutRoute(toLogView(row, null))) };
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

function withoutRoute(view: LogView): LogView {
  if (!('route' in view.metadata)) return view;
  const { route: _route, ...metadata } = view.metadata;
  return { ...view, metadata };
}
