import { LogType } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../test/databases.js';
import { LogService } from '../api/log/service.js';
import { LogWriter } from '../api/log/writer.js';
import { nowSeconds } from '../platform/clock.js';
import type { NewLogRow } from '../platform/db/index.js';
import { startLogRetentionJob } from './log-retention-job.js';

const DAY = 86_400;

function logRow(content: string, type: LogType, created_at: number): NewLogRow {
  return {
    user_id: 1,
    username: 'retained',
    created_at,
    type,
    content,
    quota: 10,
    source_ip: '',
    token_name: 'key',
    model_name: 'gpt-4o',
    prompt_tokens: 1,
    completion_tokens: 2,
    channel_id: 3,
    request_time: 50,
    is_stream: false,
    metadata: '{}',
    token_id: 0,
    request_id: '',
  };
}

/** A logs stand-in that records every batch the job asks for and what it got. */
function recordingLogs(service: LogService) {
  const batches: Array<{ limit: number; deleted: number }> = [];
  return {
    batches,
    async deleteExpiredBatch(before: number, limit: number): Promise<number> {
      const deleted = await service.deleteExpiredBatch(before, limit);
      batches.push({ limit, deleted });
      return deleted;
    },
  };
}

describe.each(availableDialects)('log retention on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  let service: LogService;
  const now = nowSeconds();
  const retentionDays = 30;

  beforeAll(async () => {
    service = new LogService(handle);
    const rows: NewLogRow[] = [];
    // Eleven expired consume logs and two expired error logs, oldest first but written out of order.
    for (let index = 0; index < 11; index++)
      rows.push(logRow(`old-consume-${index}`, LogType.consume, now - (40 + index) * DAY));
    rows.push(
      logRow('old-error-a', LogType.error, now - 31 * DAY),
      logRow('old-error-b', LogType.error, now - 35 * DAY),
    );
    rows.push(
      logRow('old-topup', LogType.topup, now - 60 * DAY),
      logRow('old-manage', LogType.manage, now - 60 * DAY),
      logRow('old-system', LogType.system, now - 60 * DAY),
      logRow('recent-consume', LogType.consume, now - 29 * DAY),
      logRow('recent-error', LogType.error, now - DAY),
    );
    const writer = new LogWriter(handle, { flushIntervalMs: 60_000 });
    for (const row of rows) writer.push(row);
    await writer.close();
  });

  const contents = async () =>
    (await handle.db.selectFrom('logs').select('content').execute()).map((row) => row.content).sort();
  const statistics = () => handle.db.selectFrom('statistics').selectAll().orderBy('date').execute();

  it('does nothing while LogRetentionDays is 0', async () => {
    const before = await contents();
    const job = startLogRetentionJob({
      options: { getNumber: () => 0 },
      logs: service,
      logger: { info: () => {}, error: () => {} },
      intervalMs: 3_600_000,
    });
    expect(await job.runNow()).toBe(0);
    await job.stop();
    expect(await contents()).toEqual(before);
  });

  it('deletes one batch of the oldest expired rows per statement, no more', async () => {
    const deleted = await service.deleteExpiredBatch(now - retentionDays * DAY, 3);
    expect(deleted).toBe(3);
    const left = await contents();
    for (const oldest of ['old-consume-10', 'old-consume-9', 'old-consume-8']) expect(left).not.toContain(oldest);
    expect(left).toContain('old-consume-7');
  });

  it('deletes expired consume and error logs in batches, keeps the rest and the roll-up', async () => {
    const rollUpBefore = await statistics();
    expect(rollUpBefore.length).toBeGreaterThan(0);
    const logs = recordingLogs(service);
    const job = startLogRetentionJob({
      options: { getNumber: (key) => (key === 'LogRetentionDays' ? retentionDays : 0) },
      logs,
      logger: { info: () => {}, error: () => {} },
      intervalMs: 3_600_000,
      batchSize: 3,
      pauseMs: 0,
    });
    // 8 consume and 2 error rows are left to expire: batches of 3, 3, 3 and 1.
    expect(await job.runNow()).toBe(10);
    await job.stop();
    expect(logs.batches).toEqual([
      { limit: 3, deleted: 3 },
      { limit: 3, deleted: 3 },
      { limit: 3, deleted: 3 },
      { limit: 3, deleted: 1 },
    ]);
    expect(await contents()).toEqual(['old-manage', 'old-system', 'old-topup', 'recent-consume', 'recent-error']);
    expect(await statistics()).toEqual(rollUpBefore);
  });

  it('stops between batches when the node shuts down', async () => {
    const writer = new LogWriter(handle, { flushIntervalMs: 60_000 });
    for (let index = 0; index < 6; index++) writer.push(logRow(`late-${index}`, LogType.consume, now - 50 * DAY));
    await writer.close();
    let job: ReturnType<typeof startLogRetentionJob> | undefined;
    const logs = {
      calls: 0,
      async deleteExpiredBatch(before: number, limit: number) {
        this.calls++;
        const deleted = await service.deleteExpiredBatch(before, limit);
        void job?.stop();
        return deleted;
      },
    };
    job = startLogRetentionJob({
      options: { getNumber: () => retentionDays },
      logs,
      logger: { info: () => {}, error: () => {} },
      batchSize: 2,
      pauseMs: 60_000,
    });
    expect(await job.runNow()).toBe(2);
    expect(logs.calls).toBe(1);
  });
});
