import type { SubscriptionService } from '../api/plan/subscription-service.js';
import type { Logger } from '../platform/logger.js';
import { repeatEvery } from './repeat.js';

/**
 * Subscriptions past their end become expired and their users go back to the group they left
 * (issue 33), every minute on the master node. Reads treat a plan past its end as over already,
 * so the minute's delay never lets a request draw on an ended plan.
 */
export function startPlanExpiryJob(options: {
  subscriptions: Pick<SubscriptionService, 'expireDue'>;
  logger: Pick<Logger, 'info' | 'error'>;
  intervalMs?: number;
}): { runNow(): Promise<number>; stop(): Promise<void> } {
  const runNow = async () => {
    const ended = await options.subscriptions.expireDue();
    if (ended > 0) options.logger.info({ ended }, 'subscriptions expired');
    return ended;
  };
  const timer = repeatEvery(options.intervalMs ?? 60_000, runNow, (error) =>
    options.logger.error({ err: error }, 'expiring subscriptions failed; the next pass tries again'),
  );
  return { runNow, stop: () => timer.cancel() };
}
