import type { AuditService } from '../api/audit/service.js';
import type { OptionService } from '../api/option/service.js';
import { type RetentionJob, type RetentionTiming, startRetentionJob } from './retention-job.js';

/**
 * Audit retention (`AuditLogRetentionDays`, 0 = keep forever, the default): audit rows older than
 * that many days are deleted in small batches, oldest first (retention-job.ts). Master node only.
 */
export interface AuditRetentionJobOptions extends RetentionTiming {
  options: Pick<OptionService, 'getNumber'>;
  audit: Pick<AuditService, 'deleteExpiredBatch'>;
}

export function startAuditRetentionJob(options: AuditRetentionJobOptions): RetentionJob {
  const { options: settings, audit, ...timing } = options;
  return startRetentionJob({
    ...timing,
    rows: 'audit rows',
    days: () => settings.getNumber('AuditLogRetentionDays'),
    deleteBatch: (before, limit) => audit.deleteExpiredBatch(before, limit),
  });
}
