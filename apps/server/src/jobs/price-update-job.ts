import type { SyncMode, SyncPricesResult } from '@one-hub/contracts';
import type { PriceService } from '../api/price/service.js';
import type { Logger } from '../platform/logger.js';
import { repeatPass } from './repeat.js';

/**
 * AUTO_PRICE_UPDATES: every AUTO_PRICE_UPDATES_INTERVAL minutes the master node fetches the
 * update service's list and applies it in AUTO_PRICE_UPDATES_MODE (add, update or overwrite);
 * locked prices are never touched. A failed fetch leaves the prices as they are and is logged.
 */
export interface PriceUpdateJob {
  /** Runs one update now (or joins the one under way). */
  runNow(): Promise<SyncPricesResult>;
  stop(): Promise<void>;
}

export function startPriceUpdateJob(options: {
  prices: Pick<PriceService, 'applyUpdates'>;
  mode: SyncMode;
  intervalMs: number;
  logger: Pick<Logger, 'info' | 'error'>;
}): PriceUpdateJob {
  const job = repeatPass(
    options.intervalMs,
    async () => {
      const result = await options.prices.applyUpdates(options.mode);
      options.logger.info({ mode: options.mode, ...result }, 'prices updated from the price update service');
      return result;
    },
    (error) => options.logger.error({ err: error }, 'the scheduled price update failed; prices left as they were'),
  );
  return { runNow: job.runNow, stop: job.cancel };
}
