import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../test/databases.js';
import { AuditRepository } from '../api/audit/repo.js';
import { AuditService } from '../api/audit/service.js';
import { nowSeconds } from '../platform/clock.js';
import { startAuditRetentionJob } from './audit-retention-job.js';

const DAY = 86_400;
const silent = { info: () => {}, error: () => {} };

describe.each(availableDialects)('audit retention on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  let audit: AuditService;
  const now = nowSeconds();

  beforeAll(async () => {
    audit = new AuditService(new AuditRepository(handle));
    // Seven rows past 30 days (written newest first, so ids do not follow age) and two recent ones.
    const ages = [31, 32, 33, 34, 35, 36, 40, 29, 1];
    for (const [index, age] of ages.entries()) {
      await handle.db
        .insertInto('audit_logs')
        .values({
          created_at: now - age * DAY,
          actor_id: 1,
          actor_name: 'root',
          actor_role: 100,
          resource: 'channel',
          action: 'update',
          target_id: String(index),
          target_name: `aged-${age}`,
          changes: '{}',
          ip: '',
          request_id: '',
        })
        .execute();
    }
  });

  const names = async () =>
    (await handle.db.selectFrom('audit_logs').select('target_name').orderBy('created_at').execute()).map(
      (row) => row.target_name,
    );

  it('keeps every row while AuditLogRetentionDays is 0, the default', async () => {
    const job = startAuditRetentionJob({ options: { getNumber: () => 0 }, audit, logger: silent });
    expect(await job.runNow()).toBe(0);
    await job.stop();
    expect(await names()).toHaveLength(9);
  });

  it('deletes the rows older than the setting, oldest first, in bounded batches', async () => {
    const batches: number[] = [];
    const job = startAuditRetentionJob({
      options: { getNumber: (key) => (key === 'AuditLogRetentionDays' ? 30 : 0) },
      audit: {
        async deleteExpiredBatch(before, limit) {
          const deleted = await audit.deleteExpiredBatch(before, limit);
          batches.push(deleted);
          return deleted;
        },
      },
      logger: silent,
      batchSize: 3,
      pauseMs: 0,
    });
    // One batch of two first, by hand: the oldest go first.
    expect(await audit.deleteExpiredBatch(now - 30 * DAY, 2)).toBe(2);
    expect(await names()).not.toContain('aged-40');
    expect(await names()).not.toContain('aged-36');
    expect(await names()).toContain('aged-35');
    expect(await job.runNow()).toBe(5);
    await job.stop();
    expect(batches).toEqual([3, 2]);
    expect(await names()).toEqual(['aged-29', 'aged-1']);
  });
});
