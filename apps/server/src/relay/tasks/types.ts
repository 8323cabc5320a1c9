import type { RefundDeps } from './refund.js';
import type { TaskDeps } from './submission.js';

/** What the task surfaces (Midjourney, Suno, Kling) are given: the submission deps, refunds and the timeout. */
export interface TaskRelayDeps extends TaskDeps {
  refunds: RefundDeps;
  /** TASK_TIMEOUT_MINUTES: an unfinished task older than this is failed and refunded. */
  timeoutMs: number;
}
