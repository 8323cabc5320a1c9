import type { Insertable, Selectable, Updateable } from 'kysely';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import { type DatabaseHandle, type Executor, insertReturningId, type TasksTable } from '../../platform/db/index.js';
import type { RouterChannel } from '../routing/router.js';
import { clientHookAddress } from './body.js';
import type { PolledVendor } from './poll-pass.js';
import { type RefundDeps, refundTask } from './refund.js';
import { runSubmission, type TaskDeps } from './submission.js';

/**
 * The `tasks` table (Suno and Kling, reference §3.1): rows the relays create at submission, the
 * pollers update, and the fetch routes answer from. Times are Unix seconds. A final row (SUCCESS
 * or FAILURE) is never changed again, so a late report cannot undo a refund.
 */

export type TaskRow = Selectable<TasksTable>;
export type NewTaskRow = Insertable<TasksTable>;
export type TaskUpdate = Updateable<TasksTable>;

export const FINAL_TASK_STATUSES = ['SUCCESS', 'FAILURE'] as const;

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export class TaskRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  insert(row: NewTaskRow): Promise<number> {
    return insertReturningId(this.handle, this.handle.db.insertInto('tasks').values(row));
  }

  /** The caller's own task of that platform with that upstream id (the newest, should one repeat). */
  findOwned(userId: number, platform: string, taskId: string): Promise<TaskRow | undefined> {
    return this.handle.db
      .selectFrom('tasks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('platform', '=', platform)
      .where('task_id', '=', taskId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  findOwnedMany(userId: number, platform: string, taskIds: readonly string[]): Promise<TaskRow[]> {
    if (taskIds.length === 0) return Promise.resolve([]);
    return this.handle.db
      .selectFrom('tasks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('platform', '=', platform)
      .where('task_id', 'in', [...taskIds])
      .orderBy('id', 'asc')
      .execute();
  }

  /** Unfinished tasks of a platform, oldest first, at most `limit` a pass. */
  unfinished(platform: string, limit: number): Promise<TaskRow[]> {
    return this.handle.db
      .selectFrom('tasks')
      .selectAll()
      .where('platform', '=', platform)
      .where('status', 'not in', [...FINAL_TASK_STATUSES])
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  }

  /** Writes a report unless the task is already final; true when the row changed. */
  async updateUnfinished(id: number, update: TaskUpdate, executor: Executor = this.handle.db): Promise<boolean> {
    const result = await executor
      .updateTable('tasks')
      .set(update)
      .where('id', '=', id)
      .where('status', 'not in', [...FINAL_TASK_STATUSES])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

/** A Suno or Kling submission, as its vendor describes it (submitTableTask). */
export interface TableTask {
  /** The row's `platform` (suno, kling), and the consume log's name for it (Suno, Kling). */
  platform: string;
  label: string;
  action: string;
  /** The billed model, kept in the row's properties with what the client sent. */
  model: string;
  channelType: number;
  sent: Record<string, unknown>;
  /** The client's callback address, kept on the row (the upstream is not told of it). */
  hook: unknown;
  /** Where the task starts on the console's progress bar. */
  progress: number;
}

/** What the upstream answered when it took the task: its id, and its data so far ('' for none). */
export interface TableAccepted {
  taskId: string;
  data: string;
}

/**
 * A Suno or Kling submission (runSubmission): `send` asks the channel and throws unless it took the
 * task; the task is then charged, with the consume log "<label> <action> <task id>", and recorded
 * in the `tasks` table for the poller and the fetch routes.
 */
export function submitTableTask<Accepted extends TableAccepted>(
  deps: TaskDeps & { repo: TaskRepository },
  request: RelayHttpRequest,
  reply: Pick<RelayHttpReply, 'header'>,
  task: TableTask,
  send: (channel: RouterChannel) => Promise<Accepted>,
): Promise<Accepted> {
  return runSubmission(
    deps,
    request,
    reply,
    { model: task.model, channelTypes: [task.channelType] },
    {
      send: (submission) => send(submission.channel),
      confirmation: (accepted) => ({ content: `${task.label} ${task.action} ${accepted.taskId}` }),
      async record(accepted, submission, charge) {
        const now = nowSeconds();
        await deps.repo.insert({
          created_at: now,
          updated_at: now,
          task_id: accepted.taskId,
          platform: task.platform,
          user_id: submission.caller.user.id,
          channel_id: submission.channel.id,
          ...charge,
          action: task.action,
          status: 'SUBMITTED',
          fail_reason: '',
          submit_time: now,
          start_time: 0,
          finish_time: 0,
          progress: task.progress,
          properties: JSON.stringify({ ...task.sent, model: task.model }),
          data: accepted.data,
          notify_hook: clientHookAddress(task.hook) ?? '',
          token_id: submission.caller.token.id,
        });
      },
    },
  );
}

export interface TaskTrackerDeps {
  repo: TaskRepository;
  refunds: RefundDeps;
}

export function taskRefundText(taskId: string, quota: number): string {
  return `异步任务执行失败 ${taskId}，补偿 ${quota}`;
}

/**
 * Applies an upstream report to a row: a FAILURE fails and refunds the task exactly once
 * (refund.ts), anything else is written if the task is still unfinished. True when the row changed.
 */
export async function applyTaskReport(deps: TaskTrackerDeps, row: TaskRow, update: TaskUpdate): Promise<boolean> {
  if (update.status === 'FAILURE') return failTask(deps, row, update);
  if (!changes(row, update)) return false;
  return deps.repo.updateUnfinished(Number(row.id), { ...update, updated_at: nowSeconds() });
}

/** Fails a task that ran longer than `timeoutMs`, and refunds it; true when this call did. */
export function expireTask(deps: TaskTrackerDeps, row: TaskRow, timeoutMs: number): Promise<boolean> {
  return failTask(deps, row, {
    fail_reason: `the task timed out: unfinished after ${Math.round(timeoutMs / 60_000)} minutes`,
  });
}

/** An unfinished task submitted longer than `timeoutMs` ago. */
export function taskExpired(row: TaskRow, timeoutMs: number, now = Date.now()): boolean {
  return now - Number(row.submit_time) * 1000 > timeoutMs;
}

async function failTask(deps: TaskTrackerDeps, row: TaskRow, update: TaskUpdate): Promise<boolean> {
  const now = nowSeconds();
  const final: TaskUpdate = {
    ...update,
    status: 'FAILURE',
    fail_reason: update.fail_reason || row.fail_reason || 'the task failed',
    finish_time: update.finish_time || now,
    updated_at: now,
  };
  const quota = Number(row.quota);
  return refundTask(deps.refunds, {
    userId: row.user_id,
    quota,
    budgetUse: row.budget_use,
    content: taskRefundText(row.task_id, quota),
    event: { event: 'task_refund', kind: 'task', task_id: row.task_id, quota },
    markFailed: (executor) => deps.repo.updateUnfinished(Number(row.id), final, executor),
  });
}

function changes(row: TaskRow, update: TaskUpdate): boolean {
  return Object.entries(update).some(([key, value]) => row[key as keyof TaskRow] !== value);
}

/** The part of a poll pass (poll-pass.ts) that is the same for every vendor whose tasks are kept here. */
export function tasksTablePolling(
  deps: TaskTrackerDeps & { timeoutMs: number },
  platform: string,
): Pick<PolledVendor<TaskRow>, 'name' | 'unfinished' | 'channelOf' | 'expired' | 'expire'> {
  return {
    name: platform,
    unfinished: (limit) => deps.repo.unfinished(platform, limit),
    channelOf: (row) => row.channel_id,
    expired: (row, now) => taskExpired(row, deps.timeoutMs, now),
    expire: (row) => expireTask(deps, row, deps.timeoutMs),
  };
}

/** Applies a report (applyTaskReport); true when it ends the task. */
export async function applyTaskReportEnds(deps: TaskTrackerDeps, row: TaskRow, update: TaskUpdate): Promise<boolean> {
  await applyTaskReport(deps, row, update);
  return update.status === 'SUCCESS' || update.status === 'FAILURE';
}
