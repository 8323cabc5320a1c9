import type { AuditService } from '../api/audit/service.js';
import type { OptionService } from '../api/option/service.js';
import type { Logger } from '../platform/logger.js';
import { type RetentionJob, startRetentionJob } from './retention-job.js';

/**
 * Audit retention (`AuditLogRetentionDays`, 0 = keep forever, the default): audit rows older than
 * that many days are deleted in small batches, oldest first (retention-job.ts). Master node only.
 */
export interface AuditRetentionJobOptions {
  options: Pick<OptionService, 'getNumber'>;
  audit: Pick<AuditService, 'deleteExpiredBatch'>;
  logger: Pick<Logger, 'info' | 'error'>;
  intervalMs?: number;
  batchSize?: number;
  pauseMs?: number;
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
