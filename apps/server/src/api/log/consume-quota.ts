import type { DatabaseHandle } from '../../platform/db/index.js';
import { localDayOf } from '../statistics/dates.js';
import { StatisticsRepository } from '../statistics/repo.js';
import type { LogFilter, LogQueryRepository } from './query-repo.js';

const HOUR = 3_600;

/**
 * The quota consume logs add up to under the log filters, without reading every log: whole local
 * days come from the daily roll-up (`statistics`, written in the same transaction as the logs, so
 * it counts exactly the rows written), and only the partial days at either edge of the time range
 * are summed from `logs`. The range starts no earlier than the oldest consume log still kept, so
 * days whose logs were cleaned up or expired count as they do when the logs are summed.
 *
 * The roll-up knows user, channel and model; the token days (migration 0028) know user, key name
 * and model, so a key is answered there unless a channel comes with it. A `username` filter is read
 * as the account that has that name (its usage, whatever name each row recorded); a name no account
 * has, a key with a channel, and the source IP and request id filters, which no roll-up can tell
 * apart, are summed from the logs. `hiddenUserIds` (an admin's view) leaves those users' usage out
 * on either path. Without any filter, the edge days are summed from the hour totals (migration
 * 0028) but for the partial hours at either end, so at most two hours of logs are read.
 */
export class ConsumeQuotaReader {
  private readonly statistics: StatisticsRepository;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly logs: LogQueryRepository,
  ) {
    this.statistics = new StatisticsRepository(handle);
  }

  async quota(filter: LogFilter, now: number): Promise<number> {
    const rolled = await this.rollUpFilter(filter);
    if (!rolled) return this.logs.consumeQuota(filter);
    const hidden = filter.hiddenUserIds ?? [];
    if (rolled.userId !== undefined && hidden.includes(rolled.userId)) return 0;
    const oldest = await this.logs.oldestConsumeLogTime();
    if (oldest === undefined) return 0;
    const lower = Math.max(filter.startTimestamp || 0, oldest);
    // No log is made after now, so a range reaching now holds all of today's logs, as its roll-up does.
    const upper = filter.endTimestamp && filter.endTimestamp < now ? filter.endTimestamp : undefined;
    if (upper !== undefined && upper < lower) return 0;
    let quota = await this.quotaBetween(rolled, lower, upper);
    if (rolled.userId !== undefined) return quota;
    // The roll-up cannot sum "everyone but these": each hidden user's share (a few staff, each an
    // indexed sum) is taken off the total instead.
    for (const userId of hidden) quota -= await this.quotaBetween({ ...rolled, userId }, lower, upper);
    return quota;
  }

  /** The filter the roll-up can answer, or undefined when only the logs can. */
  private async rollUpFilter(filter: LogFilter): Promise<LogFilter | undefined> {
    if (filter.sourceIp || filter.requestId || (filter.tokenName && filter.channelId)) return undefined;
    let userId = filter.userId;
    if (filter.username) {
      if (userId !== undefined) return undefined;
      const account = await this.handle.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', filter.username)
        .executeTakeFirst();
      if (!account) return undefined;
      userId = Number(account.id);
    }
    return { userId, modelName: filter.modelName, channelId: filter.channelId, tokenName: filter.tokenName };
  }

  /** `lower` and `upper` inclusive, in Unix seconds; no `upper`: up to now. */
  private async quotaBetween(filter: LogFilter, lower: number, upper: number | undefined): Promise<number> {
    const unfiltered = filter.userId === undefined && !filter.modelName && !filter.channelId && !filter.tokenName;
    const scan = (start: number, end: number) =>
      unfiltered
        ? this.totalQuota(start, end)
        : this.logs.consumeQuota({ ...filter, startTimestamp: start, endTimestamp: end });
    let quota = 0;
    const first = localDayOf(lower);
    let fromDate = first.date;
    let wholeFrom = first.start;
    if (lower > first.start) {
      const edgeEnd = upper === undefined ? first.end - 1 : Math.min(upper, first.end - 1);
      quota += await scan(lower, edgeEnd);
      if (edgeEnd === upper) return quota;
      fromDate = localDayOf(first.end).date;
      wholeFrom = first.end;
    }
    let toDate: string | undefined;
    if (upper !== undefined) {
      const last = localDayOf(upper);
      if (upper >= last.end - 1) toDate = last.date;
      else {
        quota += await scan(Math.max(last.start, wholeFrom), upper);
        toDate = localDayOf(last.start - 1).date;
      }
    }
    if (toDate === undefined || fromDate <= toDate) {
      const { userId, modelName, channelId, tokenName } = filter;
      quota += await this.statistics.quotaOver({ fromDate, toDate, userId, modelName, channelId, tokenName });
    }
    return quota;
  }

  /**
   * All consume logs' quota from `start` to `end` (inclusive): the whole hours between from the hour
   * totals, the partial ones at either end from the logs.
   */
  private async totalQuota(start: number, end: number): Promise<number> {
    const firstWhole = Math.ceil(start / HOUR) * HOUR;
    // Where the last whole hour inside the range ends (exclusive).
    const wholeEnd = Math.floor((end + 1) / HOUR) * HOUR;
    const scan = (from: number, to: number) => this.logs.consumeQuota({ startTimestamp: from, endTimestamp: to });
    if (wholeEnd <= firstWhole) return scan(start, end);
    let quota = await this.statistics.quotaOfHours(firstWhole, wholeEnd - HOUR);
    if (start < firstWhole) quota += await scan(start, firstWhole - 1);
    if (wholeEnd <= end) quota += await scan(wholeEnd, end);
    return quota;
  }
}
