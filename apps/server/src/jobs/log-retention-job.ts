import type { LogService } from '../api/log/service.js';
import type { OptionService } from '../api/option/service.js';
import { type RetentionJob, type RetentionTiming, startRetentionJob } from './retention-job.js';

/**
 * Log retention (`LogRetentionDays`, 0 = keep forever): consume and error logs older than that
 * many days are deleted in small batches (retention-job.ts). Top-up, manage and system logs record
 * money moving and stay, as with the manual cleanup; the daily roll-up (`statistics`) is never
 * touched, so the dashboards and the log statistics keep the usage of deleted days.
 */
export interface LogRetentionJobOptions extends RetentionTiming {
  options: Pick<OptionService, 'getNumber'>;
  logs: Pick<LogService, 'deleteExpiredBatch'>;
}

export type LogRetentionJob = RetentionJob;

export function startLogRetentionJob(options: LogRetentionJobOptions): LogRetentionJob {
  const { options: settings, logs, ...timing } = options;
  return startRetentionJob({
    ...timing,
    rows: 'logs',
    days: () => settings.getNumber('LogRetentionDays'),
    deleteBatch: (before, limit) => logs.deleteExpiredBatch(before, limit),
  });
}
