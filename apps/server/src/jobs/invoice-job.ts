import type { InvoiceService } from '../api/invoice/service.js';
import type { Logger } from '../platform/logger.js';
import { type Repeating, repeatEvery } from './repeat.js';

const HOUR_MS = 3_600_000;

/**
 * UserInvoiceMonth: once an hour the master node checks whether last month's invoices are built
 * and builds them if not (the history table makes it once per month, whichever node runs it).
 * The statistics a month is built from are final a day after it ends, so the first check that
 * builds it waits until the 2nd of the next month.
 */
export function startInvoiceJob(options: {
  invoices: Pick<InvoiceService, 'buildLastMonth'>;
  logger: Pick<Logger, 'info' | 'error'>;
  now?: () => Date;
  intervalMs?: number;
}): { runNow(): Promise<void>; stop(): Promise<void> } {
  const now = options.now ?? (() => new Date());
  const runNow = async () => {
    if (now().getDate() < 2) return;
    const built = await options.invoices.buildLastMonth();
    if (built) options.logger.info(built, 'monthly invoices built');
  };
  const timer: Repeating = repeatEvery(options.intervalMs ?? HOUR_MS, runNow, (error) =>
    options.logger.error({ err: error }, 'building the monthly invoices failed; the next check tries again'),
  );
  return { runNow, stop: () => timer.cancel() };
}
