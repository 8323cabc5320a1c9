import { type PriceBody, type SyncMode, syncPricesBody } from '@one-hub/contracts';
import { AppError } from '../../platform/errors.js';
import { callJson } from '../account/oauth/upstream.js';

/**
 * The remote price list (reference: `update_price_service`, One Hub's `prices.json`): a bare array
 * of prices or `{"data": [...]}`, read by the Update check tab on demand and, with
 * AUTO_PRICE_UPDATES, applied on a schedule by the master node (jobs/price-update-job.ts).
 */
export interface PriceUpdateSettings {
  /** Where the list is fetched from; '' turns the service off. */
  serviceUrl: string;
  /** Whether the master node applies the list on a schedule. */
  auto: boolean;
  /** How a scheduled update applies the list (`system` only seeds the built-in list, never fetches). */
  mode: SyncMode | 'system';
  intervalMinutes: number;
}

const SERVICE = 'the price update service';
/** One Hub's list is a few hundred kB; this leaves room without letting a wrong URL fill memory. */
const MAX_LIST_BYTES = 16 * 1024 * 1024;

/** Fetches and checks the list; every failure names what went wrong, never the list's content. */
export async function fetchServicePrices(serviceUrl: string): Promise<PriceBody[]> {
  if (!serviceUrl) {
    throw new AppError('bad_request', 'no price update service is configured (set UPDATE_PRICE_SERVICE)');
  }
  const answer = await callJson(serviceUrl, { maxBytes: MAX_LIST_BYTES }, SERVICE);
  if (answer.status !== 200) throw new AppError('upstream_error', `${SERVICE} answered HTTP ${answer.status}`);
  const parsed = syncPricesBody.safeParse(answer.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new AppError('upstream_error', `${SERVICE} sent a list this server cannot read (${where}${issue?.message})`);
  }
  return parsed.data;
}
