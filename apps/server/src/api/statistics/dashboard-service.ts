import { DASHBOARD_DAYS, type DashboardRate, type DashboardRow, type UserGroupView } from '@one-hub/contracts';
import type { UserRow } from '../../platform/db/index.js';
import { localDateDaysBefore } from './dates.js';
import { toDashboardRow } from './presenter.js';
import { compareDatedUsage, type StatisticsRepository } from './repo.js';

/** Where the current request rate comes from: the relay's limiter (RelayHandle.userRpm). */
export interface RequestRateSource {
  userRpm(userId: number, perMinute: number): Promise<number>;
  /** Tokens settled against the user's group TPM limit in the current minute. */
  userTpm(userId: number): Promise<number>;
}

export interface GroupLookup {
  findBySymbol(symbol: string): Promise<UserGroupView | undefined>;
}

/** A signed-in user's own usage: the last days from the roll-up, and the rate limit in use. */
export class DashboardService {
  constructor(
    private readonly statistics: StatisticsRepository,
    private readonly groups: GroupLookup,
  ) {}

  /** Today and the seven days before it, per day and model; days without usage have no rows. */
  async dashboard(caller: UserRow, now = new Date()): Promise<DashboardRow[]> {
    const rows = await this.statistics.usageByDay(
      {
        userId: caller.id,
        fromDate: localDateDaysBefore(now, DASHBOARD_DAYS - 1),
        toDate: localDateDaysBefore(now, 0),
      },
      'model',
    );
    // Sorted here, not by the database, so every database's collation gives the same order.
    return rows.sort(compareDatedUsage).map(toDashboardRow);
  }

  /** The group's RPM and TPM limits and how much of each the caller uses now. */
  async rate(caller: UserRow, source: RequestRateSource): Promise<DashboardRate> {
    const group = await this.groups.findBySymbol(caller.group);
    const maxRPM = group?.enable ? group.api_rate : 0;
    const rpm = maxRPM > 0 ? await source.userRpm(caller.id, maxRPM) : 0;
    const usageRpmRate = maxRPM > 0 ? Math.round((rpm / maxRPM) * 10_000) / 100 : 0;
    const maxTPM = group?.enable ? group.tpm : 0;
    const tpm = maxTPM > 0 ? await source.userTpm(caller.id) : 0;
    const usageTpmRate = maxTPM > 0 ? Math.round((tpm / maxTPM) * 10_000) / 100 : 0;
    return { rpm, maxRPM, usageRpmRate, tpm, maxTPM, usageTpmRate };
  }
}
