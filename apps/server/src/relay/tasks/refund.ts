import { type LogEvent, LogType } from '@one-hub/contracts';
import { z } from 'zod';
import type { LogRepository } from '../../api/log/repo.js';
import type { UserRepository } from '../../api/user/repo.js';
import type { DatabaseHandle, Executor } from '../../platform/db/index.js';
import type { WindowDelta } from '../billing/budgets/usage-store.js';

/**
 * A task that ended in failure gives its user back what it was charged (reference §4.15), exactly
 * once however many pollers, fetches or notify callbacks see the failure: the task's move to
 * FAILURE is a conditional update, and the credit and its system log row happen in the same
 * transaction only when that update changed the row. After it commits, the budget windows the
 * submission counted on (issue 33) give back their count, kept in the row's `budget_use`, unless
 * they have since closed.
 */
export interface RefundDeps {
  database: DatabaseHandle;
  /** Credits the refund; names the user on the system log row. */
  users: Pick<UserRepository, 'addQuota' | 'findById'>;
  logs: Pick<LogRepository, 'insert'>;
  /** Told after commit, so cached balances (the relay's) follow. */
  onQuotaChanged(userId: number, delta: number): void;
  /** Takes back what a failed task counted on budget windows (the relay's budget ledger). */
  uncountWindows(counted: WindowDelta[]): Promise<void>;
}

export interface FailedTask {
  userId: number;
  /** What the task was charged; 0 refunds nothing but still marks the task failed. */
  quota: number;
  /** The row's `budget_use` (budgetUseColumn); null: it counted on no window. */
  budgetUse: string | null;
  /** The system log's text (`构图失败 <id>，补偿 <amount>`, `异步任务执行失败 …`), and the same in structured form. */
  content: string;
  event: LogEvent;
  /** Moves the task to FAILURE unless it is already final; true when this call moved it. */
  markFailed(executor: Executor): Promise<boolean>;
}

/** True when this call failed the task (and refunded it); false when it was already final. */
export async function refundTask(deps: RefundDeps, task: FailedTask): Promise<boolean> {
  const refunded = await deps.database.db.transaction().execute(async (transaction) => {
    if (!(await task.markFailed(transaction))) return false;
    if (task.quota > 0) {
      await deps.users.addQuota(task.userId, task.quota, transaction);
      // The system log row names the user, as the console's log list shows it.
      const user = await deps.users.findById(task.userId, transaction);
      await deps.logs.insert(transaction, {
        userId: task.userId,
        username: user?.username ?? '',
        type: LogType.system,
        quota: task.quota,
        content: task.content,
        event: task.event,
      });
    }
    return true;
  });
  if (refunded && task.quota > 0) deps.onQuotaChanged(task.userId, task.quota);
  const counted = refunded ? parseBudgetUse(task.budgetUse) : [];
  if (counted.length > 0) await deps.uncountWindows(counted);
  return refunded;
}

const budgetUse = z.array(
  z.object({
    subject: z.string(),
    period: z.string(),
    start: z.number(),
    quota: z.number(),
    requests: z.number(),
    tokens: z.number(),
  }),
);

/** The task row's `budget_use`: what a settlement counted on each window (SettleResult.windows). */
export function budgetUseColumn(windows: WindowDelta[] | undefined): string | null {
  return windows && windows.length > 0 ? JSON.stringify(windows) : null;
}

/** The row's `budget_use` read back; a value this server did not write counts on no window. */
function parseBudgetUse(text: string | null): WindowDelta[] {
  if (!text) return [];
  try {
    const parsed = budgetUse.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
