import { LogType } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { insertUser, storedQuotaOf } from '../../../test/ledger-users.js';
import { LogRepository } from '../../api/log/repo.js';
import { UserRepository } from '../../api/user/repo.js';
import { type Executor, insertReturningId } from '../../platform/db/index.js';
import type { WindowDelta } from '../billing/budgets/usage-store.js';
import { budgetUseColumn, refundTask } from './refund.js';

/**
 * A failed task is refunded once, whoever sees the failure first: several pollers, fetches and
 * callbacks racing end with one credit, one system log row and the task in FAILURE.
 */
describe.each(availableDialects)('refundTask on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  const announced: Array<[number, number]> = [];
  const uncounted: WindowDelta[][] = [];
  const counted: WindowDelta[] = [
    { subject: 'key:7', period: 'day', start: 1_700_000_000_000, quota: 250, requests: 1, tokens: 0 },
  ];

  beforeAll(async () => {
    await insertUser(handle, 41, 1_000);
  }, 60_000);

  const deps = () => ({
    database: handle,
    users: new UserRepository(handle),
    logs: new LogRepository(),
    onQuotaChanged: (userId: number, delta: number) => announced.push([userId, delta]),
    uncountWindows: async (windows: WindowDelta[]) => {
      uncounted.push(windows);
    },
  });

  async function insertTask(status: string): Promise<number> {
    const now = Math.floor(Date.now() / 1000);
    return insertReturningId(
      handle,
      handle.db.insertInto('tasks').values({
        created_at: now,
        updated_at: now,
        task_id: `t-${status}-${now}`,
        platform: 'suno',
        user_id: 41,
        channel_id: 3,
        quota: 250,
        action: 'MUSIC',
        status,
        fail_reason: '',
        submit_time: now,
        start_time: now,
        finish_time: 0,
        progress: 10,
        token_id: 0,
        properties: '{}',
        data: '{}',
        notify_hook: '',
      }),
    );
  }

  const markFailed = (id: number) => async (executor: Executor) => {
    const result = await executor
      .updateTable('tasks')
      .set({ status: 'FAILURE', fail_reason: 'upstream said no' })
      .where('id', '=', id)
      .where('status', 'not in', ['FAILURE', 'SUCCESS'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  };

  it('credits the charge and gives back the windows’ count once, with one system log row, however many see the failure at once', async () => {
    const id = await insertTask('IN_PROGRESS');
    const before = await storedQuotaOf(handle, 41);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        refundTask(deps(), {
          userId: 41,
          quota: 250,
          budgetUse: budgetUseColumn(counted),
          content: `异步任务执行失败 ${id}，补偿 250`,
          event: { event: 'task_refund', kind: 'task', task_id: String(id), quota: 250 },
          markFailed: markFailed(id),
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await storedQuotaOf(handle, 41)).toBe(before + 250);
    const logs = await handle.db
      .selectFrom('logs')
      .selectAll()
      .where('content', '=', `异步任务执行失败 ${id}，补偿 250`)
      .execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: LogType.system, user_id: 41, username: 'u41' });
    expect(Number(logs[0]?.quota)).toBe(250);
    expect(JSON.parse(logs[0]?.metadata ?? '{}')).toEqual({
      event: 'task_refund',
      kind: 'task',
      task_id: String(id),
      quota: 250,
    });
    expect(announced.filter(([userId]) => userId === 41)).toEqual([[41, 250]]);
    expect(uncounted).toEqual([counted]);
    const task = await handle.db
      .selectFrom('tasks')
      .select(['status', 'fail_reason'])
      .where('id', '=', id)
      .executeTakeFirst();
    expect(task).toEqual({ status: 'FAILURE', fail_reason: 'upstream said no' });
  });

  it('refunds nothing for a task that already succeeded', async () => {
    const id = await insertTask('SUCCESS');
    const before = await storedQuotaOf(handle, 41);
    expect(
      await refundTask(deps(), {
        userId: 41,
        quota: 250,
        budgetUse: budgetUseColumn(counted),
        content: 'x',
        event: { event: 'task_refund', kind: 'task', task_id: String(id), quota: 250 },
        markFailed: markFailed(id),
      }),
    ).toBe(false);
    expect(await storedQuotaOf(handle, 41)).toBe(before);
    expect(uncounted).toHaveLength(1);
  });
});
