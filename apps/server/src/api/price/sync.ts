import type { PriceView, SyncMode, SyncPricesResult } from '@one-hub/contracts';
import type { Executor } from '../../platform/db/index.js';
import type { PriceRepository } from './repo.js';

/** A list may name a model twice; the later entry is the one meant. */
function lastPerModel(prices: readonly PriceView[]): PriceView[] {
  return [...new Map(prices.map((price) => [price.model, price])).values()];
}

/**
 * Applies a price list inside the caller's transaction. `add` inserts the missing models,
 * `update` replaces the stored unlocked ones, `overwrite` drops every unlocked price and inserts
 * the list. A locked row is never changed or deleted by any mode.
 */
export async function syncPrices(
  repo: PriceRepository,
  executor: Executor,
  mode: SyncMode,
  incoming: readonly PriceView[],
): Promise<SyncPricesResult> {
  const prices = lastPerModel(incoming);
  if (mode === 'overwrite') {
    const locked = new Set((await repo.all(executor)).filter((price) => price.locked).map((price) => price.model));
    const deleted = await repo.deleteUnlocked(executor);
    const added = prices.filter((price) => !locked.has(price.model));
    await repo.insertMany(executor, added);
    return { added: added.length, updated: 0, deleted };
  }

  const stored = await repo.findMany(
    executor,
    prices.map((price) => price.model),
  );
  if (mode === 'add') {
    const added = prices.filter((price) => !stored.has(price.model));
    await repo.insertMany(executor, added);
    return { added: added.length, updated: 0, deleted: 0 };
  }

  let updated = 0;
  for (const price of prices) {
    const existing = stored.get(price.model);
    if (!existing || existing.locked) continue;
    await repo.replace(executor, price.model, price);
    updated += 1;
  }
  return { added: 0, updated, deleted: 0 };
}
