import type { LinkSigner } from '../../platform/signed-links.js';
import type { AddressGuard } from '../transport/address-guard.js';
import type { RefundDeps } from './refund.js';
import type { TaskDeps } from './submission.js';

/** What the task surfaces (Midjourney, Suno, Kling) are given: the submission deps, refunds and the timeout. */
export interface TaskRelayDeps extends TaskDeps {
  refunds: RefundDeps;
  /** TASK_TIMEOUT_MINUTES: an unfinished task older than this is failed and refunded. */
  timeoutMs: number;
  /** Signs the links keyless callers use: the proxy's callback, task images (platform/signed-links.ts). */
  links: LinkSigner;
  /**
   * The private-address guards for addresses users or upstreams chose: clients' notifyHooks
   * (MjNotifyAllowPrivate) and task images (ChatImageAllowPrivate).
   */
  guards: { hooks: AddressGuard; images: AddressGuard };
}

/**
 * A task vendor's poller (poll-pass.ts), which the master node's task poll job runs
 * (jobs/task-poll-job.ts) and the tests drive pass by pass.
 */
export interface TaskPlatformPoller {
  /** suno, kling, midjourney: named in the log. */
  name: string;
  /** One pass over the vendor's unfinished tasks; answers how many are still unfinished. */
  poll(): Promise<number>;
}
